import { describe, expect, it } from 'vitest';
import { isUnlimitedPublicKey } from './credential-limits';

describe('isUnlimitedPublicKey', () => {
  const open = { type: 'public' as const, allowed_cidrs: [], allowed_origins: [], device_ids: null };

  it('flags a public key with no limit at all', () => {
    expect(isUnlimitedPublicKey(open)).toBe(true);
  });

  it.each([
    ['allowed origins', { allowed_origins: ['https://widget.example'] }],
    ['a device list', { device_ids: [42] }],
    ['allowed CIDRs', { allowed_cidrs: ['203.0.113.0/24'] }],
  ])('lets a public key with %s be', (_name, limit) => {
    expect(isUnlimitedPublicKey({ ...open, ...limit })).toBe(false);
  });

  it('never flags a secret key', () => {
    expect(isUnlimitedPublicKey({ ...open, type: 'secret' })).toBe(false);
  });
});
