import { describe, expect, it } from 'vitest';
import { MIN_NATS_SERVER_VERSION, unsupportedNatsServer } from './nats-server-version';

describe('unsupportedNatsServer', () => {
  it('accepts 2.9 and later with JetStream', () => {
    for (const version of [MIN_NATS_SERVER_VERSION, '2.9.10', '2.10.4', '2.11.0', '3.0.0', 'v2.12.1-beta']) {
      expect(unsupportedNatsServer({ version, jetstream: true })).toBeUndefined();
    }
  });

  it('refuses an older server, naming its version and the minimum', () => {
    expect(unsupportedNatsServer({ version: '2.8.4', jetstream: true })).toBe('NATS server 2.8.4 is older than 2.9.0, the oldest this platform supports');
    expect(unsupportedNatsServer({ version: '1.4.1', jetstream: true })).toMatch(/older than 2\.9\.0/);
  });

  it('refuses a server without JetStream', () => {
    expect(unsupportedNatsServer({ version: '2.11.0', jetstream: false })).toBe(
      'NATS server 2.11.0 has JetStream disabled; start it with -js (or a jetstream {} block)',
    );
  });

  it('lets an unreadable version through (the JetStream calls then speak for themselves)', () => {
    expect(unsupportedNatsServer({ version: 'dev', jetstream: true })).toBeUndefined();
    expect(unsupportedNatsServer(undefined)).toBeUndefined();
  });
});
