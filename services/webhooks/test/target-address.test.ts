// The SSRF guard: which addresses a webhook may not reach, and the URL check on save.
import { describe, expect, it } from '@jest/globals';
import { guardedLookup, isPrivateAddress } from '../src/subscriptions/target-address.ts';
import { checkTargetUrl } from '../src/subscriptions/target-url.ts';

// The table of address forms: every form must be refused unless it names a public unicast
// address. IPv6 forms that carry an IPv4 address are judged by it (mapped, translated, compatible,
// well-known NAT64) or refused whatever they carry (6to4, Teredo, local-use NAT64).
const REFUSED: [string, string][] = [
  // IPv4
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', '"this network" 0.0.0.0/8'],
  ['10.0.0.1', 'private 10/8'],
  ['100.64.0.1', 'shared (CGNAT) 100.64/10'],
  ['127.0.0.1', 'loopback'],
  ['127.255.0.9', 'loopback 127/8'],
  ['169.254.169.254', 'link-local (cloud metadata)'],
  ['172.16.0.1', 'private 172.16/12'],
  ['172.31.255.255', 'private 172.16/12, top'],
  ['192.0.0.8', 'IETF protocol assignments 192.0.0/24'],
  ['192.0.2.1', 'documentation TEST-NET-1'],
  ['192.88.99.1', '6to4 relay anycast'],
  ['192.168.0.10', 'private 192.168/16'],
  ['198.18.0.1', 'benchmarking 198.18/15'],
  ['198.51.100.7', 'documentation TEST-NET-2'],
  ['203.0.113.9', 'documentation TEST-NET-3'],
  ['224.0.0.1', 'multicast'],
  ['240.0.0.1', 'reserved 240/4'],
  ['255.255.255.255', 'broadcast'],
  // IPv6 plain
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local with a zone'],
  ['fec0::1', 'deprecated site-local'],
  ['fc00::1', 'unique-local fc00::/7'],
  ['fd00::1', 'unique-local fd00::/8'],
  ['ff02::1', 'multicast'],
  ['ff0e::1', 'multicast, global scope'],
  ['2001:db8::1', 'documentation 2001:db8::/32'],
  ['3fff::1', 'documentation 3fff::/20'],
  ['100::1', 'discard-only 100::/64'],
  ['2001:2::1', 'benchmarking 2001:2::/48'],
  ['2001:10::1', 'ORCHID'],
  ['2001:20::1', 'ORCHIDv2'],
  ['5f00::1', 'segment routing 5f00::/16'],
  ['4000::1', 'unassigned, outside 2000::/3'],
  ['e000::1', 'unassigned, outside 2000::/3'],
  // IPv4 inside IPv6, private inside
  ['::ffff:7f00:1', 'IPv4-mapped 127.0.0.1 (hex)'],
  ['::ffff:127.0.0.1', 'IPv4-mapped 127.0.0.1 (dotted)'],
  ['::ffff:10.0.0.1', 'IPv4-mapped 10.0.0.1'],
  ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
  ['::ffff:0:7f00:1', 'IPv4-translated (SIIT) 127.0.0.1'],
  ['::ffff:0:a00:1', 'IPv4-translated (SIIT) 10.0.0.1'],
  ['::7f00:1', 'IPv4-compatible 127.0.0.1'],
  ['::127.0.0.1', 'IPv4-compatible 127.0.0.1 (dotted)'],
  ['::a9fe:a9fe', 'IPv4-compatible 169.254.169.254'],
  ['::c0a8:1', 'IPv4-compatible 192.168.0.1'],
  ['64:ff9b::7f00:1', 'NAT64 well-known 127.0.0.1'],
  ['64:ff9b::10.0.0.1', 'NAT64 well-known 10.0.0.1'],
  // IPv4 inside IPv6, refused whatever is inside
  ['64:ff9b:1::808:808', 'NAT64 local-use 64:ff9b:1::/48, even with a public IPv4'],
  ['2002:7f00:1::', '6to4 of 127.0.0.1'],
  ['2002:a00:1::1', '6to4 of 10.0.0.1'],
  ['2002:808:808::1', '6to4, even of a public IPv4'],
  ['2001::1', 'Teredo'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo (RFC 4380 example)'],
  ['2001:0:53aa:64c:0:fbff:80ff:fffe', 'Teredo of 127.0.0.1 (client XOR-ed)'],
  // not an address at all
  ['localhost', 'a name, not an address'],
  ['010.0.0.1', 'octal form (never a canonical literal)'],
  ['0x7f.0.0.1', 'hex form (never a canonical literal)'],
  ['', 'empty'],
];

const ALLOWED: [string, string][] = [
  ['8.8.8.8', 'public IPv4'],
  ['93.184.215.14', 'public IPv4'],
  ['172.32.0.1', 'just above 172.16/12'],
  ['100.128.0.1', 'just above 100.64/10'],
  ['11.0.0.1', 'just above 10/8'],
  ['2606:4700::1111', 'public IPv6'],
  ['2a00:1450:4001:80b::200e', 'public IPv6'],
  ['2001:4860:4860::8888', 'public IPv6 in 2001::/16 outside Teredo'],
  ['::ffff:8.8.8.8', 'IPv4-mapped public'],
  ['::ffff:5db8:d70e', 'IPv4-mapped public (hex)'],
  ['::808:808', 'IPv4-compatible public'],
  ['64:ff9b::808:808', 'NAT64 well-known public'],
];

describe('isPrivateAddress: the table of address forms', () => {
  it.each(REFUSED)('refuses %s (%s)', (address) => expect(isPrivateAddress(address)).toBe(true));
  it.each(ALLOWED)('allows %s (%s)', (address) => expect(isPrivateAddress(address)).toBe(false));
});

describe('checkTargetUrl: address forms as a URL writes them', () => {
  it.each([
    'http://127.0.0.1/',
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://0x7f.0.0.1/',
    'http://0177.0.0.1/',
    'http://017700000001/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::7f00:1]/',
    'http://[::127.0.0.1]/',
    'http://[0:0:0:0:0:0:0:1]/',
    'http://[2002:7f00:1::]/',
    'http://[2001::1]/',
    'http://[64:ff9b::a9fe:a9fe]/',
    'http://[fd12:3456::1]/',
    'http://[ff02::1]/',
    'http://[2001:db8::1]/',
    'http://[100::1]/',
  ])('refuses %s', async (url) => {
    await expect(checkTargetUrl(url, { allowPrivate: false })).rejects.toMatchObject({
      code: 'field_invalid',
      extras: { field: 'url' },
    });
  });

  it.each(['https://[2606:4700::1111]/hook', 'https://[::ffff:808:808]/hook', 'https://8.8.8.8/hook'])(
    'accepts %s',
    async (url) => {
      await expect(checkTargetUrl(url, { allowPrivate: false })).resolves.toBe(url);
    },
  );
});

describe('refusals do not echo what a name resolved to', () => {
  it('names the host on save, not the addresses localhost resolves to', async () => {
    const error = (await checkTargetUrl('http://localhost:8080/', { allowPrivate: false }).catch(
      (e: unknown) => e,
    )) as Error;
    expect(error.message).toMatch(/localhost resolves to a private, loopback or link-local address/);
    expect(error.message).not.toMatch(/127\.0\.0\.1|::1|\(/);
  });

  it('says only the host at connect time too', async () => {
    const error = await new Promise<Error | null>((resolve) =>
      guardedLookup('localhost', {}, (err) => resolve(err)),
    );
    expect(error?.message).toBe(
      'localhost resolves to a private, loopback or link-local address, or another non-public one; webhooks may only target public addresses.',
    );
    expect(error).not.toHaveProperty('address');
  });

  it('names an address literal as written (the subscriber wrote it)', async () => {
    await expect(checkTargetUrl('http://10.0.0.1/', { allowPrivate: false })).rejects.toThrow(
      /^url: 10\.0\.0\.1 is a private/,
    );
  });
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
