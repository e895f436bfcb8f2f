import { beforeAll, describe, expect, it } from 'vitest';
import { generateDataKey, sodiumReady } from '@meter/crypto';
import { openEntry, sealEntry, type EntryRef } from './entry-seal';

describe('sealEntry / openEntry', () => {
  beforeAll(() => sodiumReady());
  const ref: EntryRef = { org: 'org1', entry: '0b8f2f4e-4a52-4a8e-9f6e-6e0a1f0c2b11', namespace: 'batch', type: 'api_token_identity', version: 1 };

  it('opens what it sealed, and the sealed text holds no plaintext', () => {
    const key = generateDataKey();
    const sealed = sealEntry(key, ref, { token: 'plaintext-token-123' });
    expect(sealed).not.toContain('plaintext-token-123');
    expect(openEntry(key, ref, sealed)).toEqual({ token: 'plaintext-token-123' });
  });

  it.each([
    ['organization', { org: 'org2' }],
    ['entry id', { entry: '1b8f2f4e-4a52-4a8e-9f6e-6e0a1f0c2b11' }],
    ['namespace', { namespace: 'other' }],
    ['type', { type: 's3_identity' as const }],
    ['version', { version: 2 }],
  ])('does not open under another %s', (_what, change) => {
    const key = generateDataKey();
    const sealed = sealEntry(key, ref, { token: 't' });
    expect(() => openEntry(key, { ...ref, ...change }, sealed)).toThrow(/failed authentication/);
  });

  it('does not open under another data key', () => {
    const sealed = sealEntry(generateDataKey(), ref, { token: 't' });
    expect(() => openEntry(generateDataKey(), ref, sealed)).toThrow(/failed authentication/);
  });
});
