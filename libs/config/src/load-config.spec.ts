import { describe, expect, it } from 'vitest';
import { loadConfig } from './load-config';
import { redactUrl } from './redact-url';

describe('loadConfig', () => {
  it('gives the working local defaults of the contract', () => {
    const config = loadConfig({});
    expect(config.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/meter');
    expect(config.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(config.NATS_URL).toBe('nats://127.0.0.1:4222');
    expect([config.GATEWAY_PORT, config.AUTH_PORT, config.VAULT_PORT, config.INGEST_PORT]).toEqual([8080, 8081, 8082, 8083]);
    expect(config.RATE_LIMIT_PER_MINUTE).toBe(60);
    expect(config.SESSION_TTL_SECONDS).toBe(3600);
    expect(config.TRUSTED_PROXIES).toEqual([]);
  });

  it('treats an empty value as unset', () => {
    expect(loadConfig({ GATEWAY_PORT: '' }).GATEWAY_PORT).toBe(8080);
  });

  it.each([
    ['GATEWAY_PORT', 'abc'],
    ['AUTH_PORT', '70000'],
    ['DATABASE_URL', 'mysql://localhost/meter'],
    ['REDIS_URL', 'not a url'],
    ['NATS_URL', 'http://127.0.0.1:4222'],
    ['NODE_ENV', 'staging'],
    ['LOG_LEVEL', 'loud'],
    ['RATE_LIMIT_PER_MINUTE', '0'],
    ['BUS_PREFIX', 'has.dot'],
  ])('names %s when its value %j is bad', (variable, value) => {
    expect(() => loadConfig({ [variable]: value })).toThrow(new RegExp(`^invalid configuration: ${variable} `));
  });

  it('parses a key ring once, and names the variable, the entry and the key id (never the key) when it is bad', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    expect(loadConfig({ CREDENTIAL_KEYRING: ` k2:${key} , k1:${key}` }).CREDENTIAL_KEYRING?.map((k) => k.id)).toEqual(['k2', 'k1']);
    const short = Buffer.alloc(16, 9).toString('base64');
    const attempt = () => loadConfig({ VAULT_ROOT_KEYRING: `k1:${short}` });
    expect(attempt).toThrow(/^invalid configuration: VAULT_ROOT_KEYRING is invalid: entry 1 \(key id k1\): key must be exactly 32 bytes/);
    expect(attempt).not.toThrow(short);
  });

  it('leaves key rings to the processes that use them, so production ingest needs none', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).CREDENTIAL_KEYRING).toBeUndefined();
  });

  it('parses the trusted proxies list once, into ranges', () => {
    const ranges = loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, ::1' }).TRUSTED_PROXIES;
    expect(ranges.map(([address, bits]) => `${address.toString()}/${bits}`)).toEqual(['10.0.0.0/8', '::1/128']);
  });

  it.each(['not-a-cidr', '10.0.0.0/33', '1.2.3', '0x7f.0.0.1', '10.1', '10.0.0.0/8,,::1/129'])('refuses the trusted proxies list %j, naming it', (value) => {
    expect(() => loadConfig({ TRUSTED_PROXIES: value })).toThrow(/^invalid configuration: TRUSTED_PROXIES entry ".+" is not an IP address/);
  });
});

describe('redactUrl', () => {
  it('hides the password only', () => {
    expect(redactUrl('postgres://app:s3cret@db:5432/meter')).toBe('postgres://app:***@db:5432/meter');
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });
});
