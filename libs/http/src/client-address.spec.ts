import { describe, expect, it } from 'vitest';
import { parseCidr, type CidrRange } from '@meter/config';
import { clientAddress, clientAddressOf } from './client-address';

const ranges = (...cidrs: string[]) => cidrs.map((c) => parseCidr(c) as CidrRange);

describe('clientAddress', () => {
  it('is the socket address when no proxy is trusted, whatever X-Forwarded-For claims', () => {
    expect(clientAddress('203.0.113.9', '10.0.0.1', [])).toBe('203.0.113.9');
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', () => {
    expect(clientAddress('203.0.113.9', '10.0.0.1', ranges('10.1.0.0/16'))).toBe('203.0.113.9');
  });

  it('takes the rightmost untrusted hop behind trusted proxies', () => {
    const trusted = ranges('10.1.0.0/16', '::1');
    expect(clientAddress('10.1.0.5', '1.1.1.1, 198.51.100.7, 10.1.0.9', trusted)).toBe('198.51.100.7');
    expect(clientAddress('10.1.0.5', ['1.1.1.1', '198.51.100.7'], trusted)).toBe('198.51.100.7');
    expect(clientAddress('::1', '198.51.100.1', trusted)).toBe('198.51.100.1');
    expect(clientAddress('10.1.0.5', undefined, trusted)).toBe('10.1.0.5');
  });

  it('stops at an unparsable hop and keeps the last real address', () => {
    expect(clientAddress('10.1.0.5', 'garbage', ranges('10.1.0.0/16'))).toBe('10.1.0.5');
    expect(clientAddress('10.1.0.5', '1.2.3.4, bogus, 10.1.0.7', ranges('10.1.0.0/16'))).toBe('10.1.0.7');
  });

  it('believes dotted quads and IPv6 only: legacy forms such as 10.1 or 0x7f.1 stop the walk', () => {
    const trusted = ranges('10.1.0.0/16');
    for (const legacy of ['10.1', '0x7f.1', '010.0.0.1', '2130706433']) expect(clientAddress('10.1.0.5', legacy, trusted), legacy).toBe('10.1.0.5');
  });

  it('unwraps IPv4-mapped IPv6 socket addresses', () => {
    expect(clientAddress('::ffff:127.0.0.1', undefined, [])).toBe('127.0.0.1');
    expect(clientAddress('::ffff:127.0.0.1', '192.0.2.1', ranges('127.0.0.1/32'))).toBe('192.0.2.1');
  });

  it('is undefined without a socket address', () => {
    expect(clientAddress(undefined, '192.0.2.1', ranges('0.0.0.0/0'))).toBeUndefined();
  });

  it('reads a request: its socket and its X-Forwarded-For', () => {
    const request = { socket: { remoteAddress: '127.0.0.1' }, headers: { 'x-forwarded-for': '198.51.100.3' } };
    expect(clientAddressOf(request, ranges('127.0.0.1'))).toBe('198.51.100.3');
    expect(clientAddressOf(request, [])).toBe('127.0.0.1');
  });
});
