import { describe, expect, it } from 'vitest';
import { constantTimeEqual, randomToken, sha256Hex } from './token';

describe('randomToken', () => {
  it('is base64url of the requested number of bytes and unique', () => {
    const token = randomToken();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    expect(randomToken(16)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(Array.from({ length: 100 }, () => randomToken())).size).toBe(100);
  });

  it('refuses weak or silly sizes', () => {
    for (const bytes of [0, 8, 15, 16.5, 4096]) expect(() => randomToken(bytes)).toThrow(RangeError);
  });
});

describe('sha256Hex', () => {
  it('matches the known digests for text and bytes', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex(new TextEncoder().encode('abc'))).toBe(sha256Hex('abc'));
  });
});

describe('constantTimeEqual', () => {
  it('compares strings and bytes', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', new TextEncoder().encode('abc'))).toBe(true);
    expect(constantTimeEqual(new Uint8Array([1, 2]), new Uint8Array([1, 2]))).toBe(true);
    expect(constantTimeEqual('', '')).toBe(true);
  });

  it('is false for unequal lengths, including prefixes', () => {
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
    expect(constantTimeEqual('abcd', 'abc')).toBe(false);
    expect(constantTimeEqual('', 'a')).toBe(false);
    expect(constantTimeEqual('é', 'e')).toBe(false);
  });
});
