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

  it('leaves key rings to the processes that use them, so production ingest needs none', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).CREDENTIAL_KEYRING).toBeUndefined();
  });

  it('splits the trusted proxies list', () => {
    expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, ::1' }).TRUSTED_PROXIES).toEqual(['10.0.0.0/8', '::1']);
  });

  it.each(['not-a-cidr', '10.0.0.0/33', '1.2.3', '0x7f.0.0.1', '10.0.0.0/8,,::1/129'])('refuses the trusted proxies list %j, naming it', (value) => {
    expect(() => loadConfig({ TRUSTED_PROXIES: value })).toThrow(/^invalid configuration: TRUSTED_PROXIES /);
  });
});

describe('redactUrl', () => {
  it('hides the password only', () => {
    expect(redactUrl('postgres://app:s3cret@db:5432/meter')).toBe('postgres://app:***@db:5432/meter');
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });
});
