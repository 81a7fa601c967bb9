// SSRF guard for webhook targets: a subscriber's URL must not make the platform call into its own
// network. Only public unicast addresses may be reached unless the operator allows private ones
// (FIELDOPS_WEBHOOK_ALLOW_PRIVATE=1, for tests and local development). The check runs when a URL
// is saved (a clear 400) and again on every delivery, at connect time, so a host name that later
// resolves to a private address is still refused.
//
// The rule is an allow-list, not a table of bad ranges: an address passes only when ipaddr.js
// (which tracks the IANA special-purpose registries) calls it plain `unicast` and, for IPv6, it
// lies in global unicast space (2000::/3). Forms that carry an IPv4 address inside IPv6 are judged
// by that IPv4 address or refused outright:
// - IPv4-mapped (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96), IPv4-compatible (::/96) and
//   the well-known NAT64 prefix (64:ff9b::/96) put the IPv4 address in the last 32 bits, where a
//   stack or a translator will deliver to it: they pass only when that address would pass.
// - 6to4 (2002::/16), Teredo (2001::/32) and the local-use NAT64 prefix (64:ff9b:1::/48) are
//   refused whatever they carry. Where 6to4 and Teredo packets end up depends on relays in the
//   platform's own network, Teredo hides its IPv4 addresses (the client's is XOR-ed), and the
//   local-use NAT64 prefix may put the IPv4 address at any of six offsets and by definition
//   names a translator inside some operator's network. A real webhook receiver has a native
//   address; decoding these forms would add code for no one.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** IPv6 ranges whose last 32 bits are the IPv4 address the packet goes to. */
const EMBEDS_IPV4_IN_LAST_32_BITS = new Set(['ipv4Mapped', 'rfc6145']);
const WELL_KNOWN_NAT64 = ipaddr.parseCIDR('64:ff9b::/96');
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

function lastIpv4(address: ipaddr.IPv6): ipaddr.IPv4 {
  const bytes = address.toByteArray();
  return new ipaddr.IPv4(bytes.slice(12));
}

const isPublicV4 = (address: ipaddr.IPv4): boolean => address.range() === 'unicast';

function isPublicV6(address: ipaddr.IPv6): boolean {
  const range = address.range();
  if (EMBEDS_IPV4_IN_LAST_32_BITS.has(range)) return isPublicV4(lastIpv4(address));
  if (address.match(WELL_KNOWN_NAT64)) return isPublicV4(lastIpv4(address));
  // ::/96 holds :: and ::1 as well; their "IPv4 address" is 0.0.0.0/8, refused like them.
  if (address.match(IPV4_COMPATIBLE)) return isPublicV4(lastIpv4(address));
  return range === 'unicast' && address.match(GLOBAL_UNICAST);
}

/** True for an address a webhook may not reach without the operator's permission. */
export function isPrivateAddress(address: string): boolean {
  // Only the canonical literals Node accepts (dotted decimal, RFC 4291 text): ipaddr.js would also
  // read octal or hex IPv4 forms, which a URL has already normalized and DNS never returns.
  const family = isIP(address);
  if (family === 0) return true;
  try {
    const parsed = ipaddr.parse(address);
    return parsed.kind() === 'ipv4' ? !isPublicV4(parsed as ipaddr.IPv4) : !isPublicV6(parsed as ipaddr.IPv6);
  } catch {
    return true;
  }
}

/** The host of a URL as an address or name (`[::1]` → `::1`). */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * The sentence for a refused target. It names what the subscriber wrote and never what a name
 * resolved to: echoing resolved addresses would let a tenant map the platform's internal DNS.
 */
export function refusedTargetMessage(host: string): string {
  const what = isIP(host) ? `${host} is` : `${host} resolves to`;
  return `${what} a private, loopback or link-local address, or another non-public one; webhooks may only target public addresses.`;
}

export class BlockedAddressError extends Error {
  readonly host: string;
  constructor(host: string) {
    super(refusedTargetMessage(host));
    this.host = host;
    this.name = 'BlockedAddressError';
  }
}

/** Every address the host resolves to; an address literal resolves to itself. */
export async function resolveHost(host: string): Promise<string[]> {
  if (isIP(host)) return [host];
  const found = await new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(host, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );
  return found.map((entry) => entry.address);
}

type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that refuses private addresses at connect time (no window between
 * the check and the connection for a rebinding DNS answer to slip through).
 */
export function guardedLookup(
  hostname: string,
  options: { all?: boolean; family?: number | string },
  callback: LookupCallback,
): void {
  dnsLookup(hostname, { ...options, all: true } as { all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const bad = addresses.find((entry) => isPrivateAddress(entry.address));
    if (bad) return callback(new BlockedAddressError(hostname), []);
    if (options.all) return callback(null, addresses);
    const first = addresses[0];
    if (!first) return callback(new Error(`${hostname} has no address.`), []);
    callback(null, first.address, first.family);
  });
}
