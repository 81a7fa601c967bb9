// The presign manifest re-checks the field limits the gateway states for each file
// (CAPTURE_FIELD_LIMITS): a direct caller's over-long file name or media type gets the HTTP API's
// error, field_too_long naming frames.N.name or frames.N.contentType; too many files is field_invalid.
import { describe, expect, it } from '@jest/globals';
import { CAPTURE_FIELD_LIMITS } from '@fieldops/contracts';
import { validateManifest } from '../src/session-model/manifest.ts';

const file = { name: 'roof.jpg', contentType: 'image/jpeg', size: 10 };
const refusal = (entries: (typeof file)[]) => {
  try {
    validateManifest('ten_a', 'cap_1', entries);
  } catch (error) {
    return error;
  }
  throw new Error('the manifest was accepted');
};

describe('capture manifest field limits, checked by the service itself', () => {
  it.each([
    ['name', CAPTURE_FIELD_LIMITS.text],
    ['contentType', CAPTURE_FIELD_LIMITS.contentType],
  ] as const)('refuses a file whose %s is over %i characters', (field, max) => {
    const over = { ...file, [field]: `image/${'x'.repeat(max)}` };
    expect(refusal([file, over])).toMatchObject({
      code: 'field_too_long',
      extras: { field: `frames.1.${field}`, maxLength: max },
    });
  });

  it('refuses more files than a capture takes', () => {
    const entries = Array.from({ length: CAPTURE_FIELD_LIMITS.frames + 1 }, () => file);
    expect(refusal(entries)).toMatchObject({ code: 'field_invalid', extras: { field: 'frames' } });
  });
});
