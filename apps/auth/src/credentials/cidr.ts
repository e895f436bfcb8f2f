import ipaddr from 'ipaddr.js';
import { isUsualAddressNotation } from '@meter/config';

export type CidrResult = { ok: true; cidr: string } | { ok: false; message: string };

/**
 * An allow-list entry in canonical form: `10.0.0.0/8`, `2001:db8::/32`.
 * A bare address means that one host (/32 or /128). Host bits set under
 * the prefix (`10.1.2.3/8`) are refused rather than guessed at.
 */
export function normalizeCidr(text: string): CidrResult {
  const value = text.trim();
  if (value === '' || value.length > 64) return { ok: false, message: 'is not an IPv4 or IPv6 CIDR range' };
  const slash = value.indexOf('/');
  const addressText = slash < 0 ? value : value.slice(0, slash);
  // The notations the gateway parses allow-lists with: no `10.1` or octal `010.0.0.1`.
  if (!isUsualAddressNotation(addressText)) return { ok: false, message: 'is not an IPv4 or IPv6 CIDR range' };
  const address = ipaddr.parse(addressText);
  const maxBits = address.kind() === 'ipv4' ? 32 : 128;
  let bits = maxBits;
  if (slash >= 0) {
    const bitsText = value.slice(slash + 1);
    if (!/^\d{1,3}$/.test(bitsText) || Number(bitsText) > maxBits) return { ok: false, message: `prefix length must be 0..${maxBits}` };
    bits = Number(bitsText);
  }
  const network = networkOf(address, bits);
  if (network.toString() !== address.toString()) {
    return { ok: false, message: `has host bits set; the range is ${network.toString()}/${bits}` };
  }
  return { ok: true, cidr: `${network.toString()}/${bits}` };
}

function networkOf(address: ipaddr.IPv4 | ipaddr.IPv6, bits: number): ipaddr.IPv4 | ipaddr.IPv6 {
  const bytes = address.toByteArray();
  for (let i = 0; i < bytes.length; i++) {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    bytes[i] &= keep === 0 ? 0 : (0xff << (8 - keep)) & 0xff;
  }
  return ipaddr.fromByteArray(bytes);
}
