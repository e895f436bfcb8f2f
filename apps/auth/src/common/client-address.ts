import ipaddr from 'ipaddr.js';

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** Parses TRUSTED_PROXIES entries (CIDRs or single addresses); throws naming a bad one. */
export function parseTrustedProxies(entries: readonly string[]): Range[] {
  return entries.map((entry) => {
    try {
      return entry.includes('/') ? ipaddr.parseCIDR(entry) : hostRange(ipaddr.parse(entry));
    } catch {
      throw new Error(`TRUSTED_PROXIES entry ${JSON.stringify(entry)} is not an address or CIDR`);
    }
  });
}

/**
 * The caller's address: the socket's, or, when the socket is a trusted
 * proxy, the right-most X-Forwarded-For entry that is not itself a
 * trusted proxy (entries further left are whatever the client claimed).
 */
export function clientAddress(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trusted: readonly Range[]): string {
  const socket = normalize(socketAddress ?? '');
  if (!trusted.length || !isTrusted(socket, trusted)) return socket;
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '');
  const hops = header
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalize(hops[i]);
    if (!ipaddr.isValid(hop)) return socket;
    if (!isTrusted(hop, trusted)) return hop;
  }
  return socket;
}

function isTrusted(address: string, trusted: readonly Range[]): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  return trusted.some((range) => parsed.kind() === range[0].kind() && parsed.match(range));
}

/** `::ffff:10.0.0.1` (how Node reports IPv4 on a dual-stack socket) becomes `10.0.0.1`. */
function normalize(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) return (parsed as ipaddr.IPv6).toIPv4Address().toString();
  return parsed.toString();
}

function hostRange(address: ipaddr.IPv4 | ipaddr.IPv6): Range {
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}
