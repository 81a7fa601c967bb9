// An endpoint's `errors` holds only the codes its own service or handler answers: what the
// declaration implies (auth, validation, writes, project scope, the edge) is derived by
// errorCodesOf, so listing it again would be a second home that drifts from the first.
import { describe, expect, it } from '@jest/globals';
import { errorCodesOf } from '../../src/pipeline/pipeline-errors.ts';
import { buildRegistry } from '../../src/registry/index.ts';
import type { PipelineDeps } from '../../src/pipeline/deps.ts';

const registry = buildRegistry({} as PipelineDeps);

describe('declared errors', () => {
  it('name no code the pipeline already derives from the declaration', () => {
    const repeated = registry.flatMap((endpoint) => {
      const derived = errorCodesOf({ ...endpoint, errors: [] });
      return (endpoint.errors ?? [])
        .filter((code) => derived.includes(code))
        .map((code) => `${endpoint.operationId}: ${code}`);
    });
    expect(repeated).toEqual([]);
  });
});
