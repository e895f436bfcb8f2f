import ipaddr from 'ipaddr.js';

export type ParsedAddress = ipaddr.IPv4 | ipaddr.IPv6;
export type CidrRange = [ParsedAddress, number];

/** Dotted quads and IPv6 only: no legacy forms like `1.2.3`, `0x7f.1` or octal `010.0.0.1`, which people misread. */
export function isUsualAddressNotation(text: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(text) || (text.includes(':') && ipaddr.IPv6.isValid(text));
}

/**
 * An address as one family: an IPv4-mapped IPv6 address (`::ffff:10.0.0.1`,
 * what a dual-stack socket reports for IPv4 peers) becomes plain IPv4, so
 * `10.0.0.0/8` matches it. Undefined for anything that is not an address.
 */
export function parseAddress(text: string | undefined): ParsedAddress | undefined {
  if (!text) return undefined;
  const trimmed = text.trim();
  if (!isUsualAddressNotation(trimmed)) return undefined;
  try {
    const address = ipaddr.parse(trimmed);
    if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
      return (address as ipaddr.IPv6).toIPv4Address();
    }
    return address;
  } catch {
    return undefined;
  }
}

/** `10.0.0.0/8`, `2001:db8::/32`, or a bare address (a /32 or /128). Undefined when unusable. */
export function parseCidr(text: string): CidrRange | undefined {
  const trimmed = text.trim();
  try {
    if (!trimmed.includes('/')) {
      const address = parseAddress(trimmed);
      return address ? [address, address.kind() === 'ipv4' ? 32 : 128] : undefined;
    }
    const [addressText, bitsText] = trimmed.split('/');
    if (!parseAddress(addressText) || !/^\d{1,3}$/.test(bitsText ?? '')) return undefined;
    const [address, bits] = ipaddr.parseCIDR(trimmed);
    if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
      return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
    }
    return [address, bits];
  } catch {
    return undefined;
  }
}

export function inRange(address: ParsedAddress, range: CidrRange): boolean {
  return address.kind() === range[0].kind() && address.match(range);
}

export function inAnyRange(address: ParsedAddress, ranges: readonly CidrRange[]): boolean {
  return ranges.some((range) => inRange(address, range));
}

/**
 * The block a per-address limit counts for an address: an IPv4 address itself, the /64 of an IPv6 one
 * (one subscriber usually holds a whole /64, so counting single IPv6 addresses would let them rotate
 * through it). Text that is not an address is its own block.
 */
export function addressBlock(text: string): string {
  const address = parseAddress(text);
  if (!address || address.kind() === 'ipv4') return address ? address.toString() : text;
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}
