import { describe, expect, it } from 'vitest';
import { signPageToken, verifyPageToken } from './page-token';

const k1 = new Uint8Array(32).fill(1);
const k2 = new Uint8Array(32).fill(2);

describe('device page tokens', () => {
  const token = signPageToken([k1], 'acme', 42);

  it('round-trips for the organization it was issued to', () => {
    expect(verifyPageToken([k1], 'acme', token)).toBe(42);
  });

  it('still verifies after a key rotation (old key kept in the ring)', () => {
    expect(verifyPageToken([k2, k1], 'acme', token)).toBe(42);
  });

  it.each([
    ['another organization', 'other', token],
    ['an edited payload', 'acme', `${Buffer.from(JSON.stringify({ o: 'acme', a: 7 })).toString('base64url')}.${token.split('.')[1]}`],
    ['an edited tag', 'acme', `${token.slice(0, -2)}${token.endsWith('AA') ? 'BA' : 'AA'}`],
    ['garbage', 'acme', 'not-a-token'],
    ['empty', 'acme', ''],
    ['a token under an unknown key', 'acme', signPageToken([k2], 'acme', 42)],
  ])('refuses %s', (_name, org, candidate) => {
    expect(verifyPageToken([k1], org, candidate)).toBeUndefined();
  });
});
