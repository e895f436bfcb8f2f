import { describe, expect, it } from 'vitest';
import { isVaultEntryId } from './vault';

describe('isVaultEntryId', () => {
  it('takes a UUID in either case, nothing else', () => {
    expect(isVaultEntryId('0b8f2f4e-4a52-4a8e-9f6e-6e0a1f0c2b11')).toBe(true);
    expect(isVaultEntryId('0B8F2F4E-4A52-4A8E-9F6E-6E0A1F0C2B11')).toBe(true);
    for (const bad of ['not-a-uuid', '', '0b8f2f4e4a524a8e9f6e6e0a1f0c2b11', '0b8f2f4e-4a52-4a8e-9f6e-6e0a1f0c2b11 '])
      expect(isVaultEntryId(bad), bad).toBe(false);
  });
});
