// The SSRF guard: which addresses a webhook may not reach, and the URL check on save.
import { describe, expect, it } from '@jest/globals';
import { guardedLookup, isPrivateAddress } from '../src/subscriptions/target-address.js';
import { checkTargetUrl } from '../src/subscriptions/target-url.js';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.10',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
  ])('refuses %s', (address) => expect(isPrivateAddress(address)).toBe(true));

  it.each(['8.8.8.8', '93.184.215.14', '172.32.0.1', '2606:4700::1111'])('allows %s', (address) =>
    expect(isPrivateAddress(address)).toBe(false),
  );
});

describe('checkTargetUrl', () => {
  it('accepts a public address and normalizes the URL', async () => {
    await expect(checkTargetUrl('https://93.184.215.14/hook', { allowPrivate: false })).resolves.toBe(
      'https://93.184.215.14/hook',
    );
  });

  it('refuses credentials in the URL, other schemes and private targets', async () => {
    await expect(checkTargetUrl('https://u:p@93.184.215.14/', { allowPrivate: false })).rejects.toMatchObject(
      {
        code: 'field_invalid',
      },
    );
    await expect(checkTargetUrl('file:///etc/passwd', { allowPrivate: true })).rejects.toMatchObject({
      code: 'field_invalid',
    });
    await expect(checkTargetUrl('http://localhost:8080/', { allowPrivate: false })).rejects.toMatchObject({
      code: 'field_invalid',
      extras: { field: 'url' },
    });
  });

  it('accepts a private target when the operator allows it', async () => {
    await expect(checkTargetUrl('http://127.0.0.1:3000/x', { allowPrivate: true })).resolves.toBe(
      'http://127.0.0.1:3000/x',
    );
  });
});

describe('guardedLookup (connect time)', () => {
  it('refuses a host name that resolves to loopback', async () => {
    const error = await new Promise<Error | null>((resolve) =>
      guardedLookup('localhost', {}, (err) => resolve(err)),
    );
    expect(error?.message).toMatch(/private, loopback or link-local/);
  });
});
