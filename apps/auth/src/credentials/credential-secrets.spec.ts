import { describe, expect, it } from 'vitest';
import { newAccessKey, newSecretKey } from './credential-secrets';

describe('credential secrets', () => {
  it('prefixes access keys by type', () => {
    expect(newAccessKey('secret')).toMatch(/^sk_live_[A-Za-z0-9_-]{32}$/);
    expect(newAccessKey('public')).toMatch(/^pk_live_[A-Za-z0-9_-]{32}$/);
  });

  it('makes secret keys of 32 random bytes, different each time', () => {
    const a = newSecretKey();
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(a).not.toBe(newSecretKey());
  });
});
