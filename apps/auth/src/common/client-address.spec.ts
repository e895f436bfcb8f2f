import { describe, expect, it } from 'vitest';
import { clientAddress, parseTrustedProxies } from './client-address';

describe('clientAddress', () => {
  const trusted = parseTrustedProxies(['10.0.0.0/8', '::1']);

  it('uses the socket address when no proxy is trusted, ignoring X-Forwarded-For', () => {
    expect(clientAddress('203.0.113.9', '198.51.100.1', [])).toBe('203.0.113.9');
    expect(clientAddress('::ffff:203.0.113.9', undefined, [])).toBe('203.0.113.9');
  });

  it('ignores X-Forwarded-For from an untrusted socket', () => {
    expect(clientAddress('203.0.113.9', '198.51.100.1', trusted)).toBe('203.0.113.9');
  });

  it('takes the right-most untrusted hop behind trusted proxies', () => {
    expect(clientAddress('10.0.0.5', '1.2.3.4, 198.51.100.1, 10.0.0.7', trusted)).toBe('198.51.100.1');
    expect(clientAddress('::1', '198.51.100.1', trusted)).toBe('198.51.100.1');
  });

  it('falls back to the socket for a garbage hop or no header', () => {
    expect(clientAddress('10.0.0.5', 'not-an-ip', trusted)).toBe('10.0.0.5');
    expect(clientAddress('10.0.0.5', undefined, trusted)).toBe('10.0.0.5');
  });

  it('names a bad TRUSTED_PROXIES entry', () => {
    expect(() => parseTrustedProxies(['10.0.0.0/99'])).toThrow(/TRUSTED_PROXIES entry "10.0.0.0\/99"/);
  });
});
