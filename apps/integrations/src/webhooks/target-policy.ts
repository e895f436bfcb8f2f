import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where webhooks may go (docs/alerts-and-webhooks.md): https to public
 * addresses; where WEBHOOK_ALLOW_PRIVATE_URLS is true (development) also
 * loopback and private addresses, and http only to those. Checked when an
 * endpoint is saved (names resolved) and again for the address each
 * connection is made to, so a name that later resolves elsewhere gains nothing.
 */

/**
 * The IPv4 address an IPv6 address carries and must be judged as: mapped
 * (`::ffff:0:0/96`), translated (`::ffff:0:0:0/96`), NAT64 (`64:ff9b::/96`)
 * and 6to4 (`2002::/16`). The deprecated IPv4-compatible range (`::/96`) is
 * refused whole, whatever it embeds, so `'refused'` for it.
 */
export function embeddedIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | 'refused' | undefined {
  const [a, b, c, d, e, f, g, h] = address.parts;
  const v4 = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0) return 'refused';
  if (a === 0 && b === 0 && c === 0 && d === 0 && ((e === 0 && f === 0xffff) || (e === 0xffff && f === 0))) return v4(g, h);
  if (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0) return v4(g, h);
  if (a === 0x2002) return v4(b, c);
  return undefined;
}

/** A global unicast address: not loopback, private, link-local, CGNAT, multicast, reserved or unspecified (embedded IPv4 judged as IPv4). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return parsed.range() === 'unicast';
  const embedded = embeddedIPv4(parsed as ipaddr.IPv6);
  if (embedded === 'refused') return false;
  return (embedded ?? parsed).range() === 'unicast';
}

/** Why a connection to `address` is refused, or undefined when it is allowed. */
export function refusedAddress(address: string, protocol: string, allowPrivate: boolean): string | undefined {
  const isPublic = isPublicAddress(address);
  if (protocol === 'http:') {
    if (!allowPrivate) return 'http is not allowed: use https';
    return isPublic ? `http is allowed only to loopback and private addresses, and ${address} is public: use https` : undefined;
  }
  return isPublic || allowPrivate ? undefined : `${address} is a loopback, private or reserved address`;
}

/** The URL's host as an address or a name (IPv6 literals without brackets). */
export const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

export type Resolve = (host: string) => Promise<string[]>;
const resolveAll: Resolve = async (host) => (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Checks an endpoint URL before it is saved; the problem as the field's message, or undefined. */
export async function checkEndpointUrl(text: string, allowPrivate: boolean, resolve: Resolve = resolveAll): Promise<string | undefined> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an https URL';
  if (url.username || url.password) return 'must not carry credentials: the signature authenticates each delivery';
  if (url.protocol === 'http:' && !allowPrivate) return 'must be https';
  // https anywhere is allowed here: nothing to resolve.
  if (url.protocol === 'https:' && allowPrivate) return undefined;
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolve(host);
  } catch {
    return `host ${host} does not resolve`;
  }
  if (addresses.length === 0) return `host ${host} does not resolve`;
  for (const address of addresses) {
    const refused = refusedAddress(address, url.protocol, allowPrivate);
    if (refused) return `must not point at this address: ${refused}`;
  }
  return undefined;
}
