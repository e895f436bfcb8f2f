import type { IncomingHttpHeaders } from 'node:http';
import { inAnyRange, parseAddress, type CidrRange } from '@meter/config';

/**
 * The address a request comes from (docs/gateway-security.md, "Source
 * addresses"), for every process: the socket peer, unless the peer is a
 * trusted proxy (TRUSTED_PROXIES); then `X-Forwarded-For` is walked from
 * the right (the entry the nearest proxy appended) past further trusted
 * proxies, and the first untrusted entry is the client. Entries left of
 * it were written by the client itself and are never believed. An entry
 * that is not a dotted quad or IPv6 address (`10.1`, `0x7f.1`, garbage)
 * stops the walk at the last address known to be real. Undefined without
 * a socket address.
 */
export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trustedProxies: readonly CidrRange[],
): string | undefined {
  const peer = parseAddress(socketAddress);
  if (!peer) return undefined;
  if (trustedProxies.length === 0 || !inAnyRange(peer, trustedProxies) || forwardedFor === undefined) {
    return peer.toString();
  }
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',');
  let client = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = parseAddress(hops[i]);
    if (!hop) break;
    client = hop;
    if (!inAnyRange(hop, trustedProxies)) break;
  }
  return client.toString();
}

/** A Fastify (or Node) request's client address; see {@link clientAddress}. */
export function clientAddressOf(
  request: { socket?: { remoteAddress?: string }; headers: IncomingHttpHeaders },
  trustedProxies: readonly CidrRange[],
): string | undefined {
  return clientAddress(request.socket?.remoteAddress, request.headers['x-forwarded-for'], trustedProxies);
}
