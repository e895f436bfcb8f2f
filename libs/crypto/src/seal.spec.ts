import { beforeAll, describe, expect, it } from 'vitest';
import { associatedData } from './associated-data';
import { generateKey, parseKeyRing, removeKey, rotateKeyRing, type KeyRing } from './key-ring';
import { needsReseal, open, openText, reseal, seal, SealedDataError, sealedKeyId } from './seal';
import { cryptoReady, sodiumReady } from './sodium';

beforeAll(async () => {
  await sodiumReady();
  await cryptoReady();
});

const ad = (org: string, id: string) => associatedData({ org, credential: id });

function failure(run: () => unknown): SealedDataError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SealedDataError);
    return error as SealedDataError;
  }
  throw new Error('expected a SealedDataError');
}

/** Flips one bit of the decoded byte at `index` of part `part` (2 = nonce, 3 = ciphertext). */
function flip(sealed: string, part: 2 | 3, index: number): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[part] as string, 'base64url');
  bytes[index] = (bytes[index] as number) ^ 0x01;
  parts[part] = bytes.toString('base64url');
  return parts.join('.');
}

describe('seal and open', () => {
  const ring: KeyRing = [generateKey('k1')];

  it('round-trips text and bytes', () => {
    const sealed = seal(ring, 'sk_live_ünïcode ✓', ad('o1', 'c1'));
    expect(sealed).toMatch(/^v1\.k1\.[A-Za-z0-9_-]{32}\.[A-Za-z0-9_-]+$/);
    expect(openText(ring, sealed, ad('o1', 'c1'))).toBe('sk_live_ünïcode ✓');

    const bytes = new Uint8Array([0, 1, 2, 255]);
    expect(open(ring, seal(ring, bytes, ad('o1', 'c1')), ad('o1', 'c1'))).toEqual(bytes);
    expect(open(ring, seal(ring, '', ad('o1', 'c1')), ad('o1', 'c1'))).toHaveLength(0);
  });

  it('uses a fresh nonce each time and does not show the plaintext', () => {
    const a = seal(ring, 'same secret', ad('o1', 'c1'));
    const b = seal(ring, 'same secret', ad('o1', 'c1'));
    expect(a).not.toBe(b);
    expect(a).not.toContain(Buffer.from('same secret').toString('base64url').slice(0, 8));
  });

  it('does not open with the associated data of another row or organization', () => {
    const sealed = seal(ring, 'secret', ad('o1', 'c1'));
    for (const other of [ad('o1', 'c2'), ad('o2', 'c1'), associatedData({}), new Uint8Array()]) {
      const error = failure(() => open(ring, sealed, other));
      expect(error.problem).toBe('authentication');
      expect(error.message).not.toContain('secret"');
    }
  });

  it('detects one flipped bit anywhere', () => {
    const sealed = seal(ring, 'secret', ad('o1', 'c1'));
    const ciphertextLength = Buffer.from(sealed.split('.')[3] as string, 'base64url').length;
    for (let i = 0; i < ciphertextLength; i++) {
      expect(failure(() => open(ring, flip(sealed, 3, i), ad('o1', 'c1'))).problem).toBe('authentication');
    }
    for (const i of [0, 12, 23]) {
      expect(failure(() => open(ring, flip(sealed, 2, i), ad('o1', 'c1'))).problem).toBe('authentication');
    }
  });

  it('does not open under another key, even one given the same id', () => {
    const sealed = seal(ring, 'secret', ad('o1', 'c1'));
    expect(failure(() => open([generateKey('k1')], sealed, ad('o1', 'c1'))).problem).toBe('authentication');
  });

  it('binds the key id: relabelling the text fails', () => {
    const twoKeys = [generateKey('k2'), ring[0]!];
    const sealed = seal(ring, 'secret', ad('o1', 'c1'));
    const relabelled = sealed.replace('v1.k1.', 'v1.k2.');
    expect(failure(() => open(twoKeys, relabelled, ad('o1', 'c1'))).problem).toBe('authentication');
  });

  it('names an unknown key id', () => {
    const sealed = seal([generateKey('gone')], 'secret', ad('o1', 'c1'));
    const error = failure(() => open(ring, sealed, ad('o1', 'c1')));
    expect(error.problem).toBe('unknown-key');
    expect(error.message).toContain('gone');
  });

  it('rejects malformed text as a format problem', () => {
    const sealed = seal(ring, 'secret', ad('o1', 'c1'));
    const [, , nonce, ciphertext] = sealed.split('.');
    const bad = [
      '',
      'v1.k1',
      `v2.k1.${nonce}.${ciphertext}`,
      `v1.k!.${nonce}.${ciphertext}`,
      `v1.k1.${nonce?.slice(1)}.${ciphertext}`,
      `v1.k1.${nonce}.${ciphertext}=`,
      `v1.k1.${nonce}.${ciphertext?.slice(0, 10)}`,
      `${sealed}.extra`,
      42 as unknown as string,
    ];
    for (const text of bad) {
      expect(failure(() => open(ring, text, ad('o1', 'c1'))).problem).toBe('format');
    }
    expect(() => sealedKeyId('nope')).toThrow(SealedDataError);
  });

  it('openText refuses bytes that are not UTF-8', () => {
    const sealed = seal(ring, new Uint8Array([0xff, 0xfe]), ad('o1', 'c1'));
    expect(() => openText(ring, sealed, ad('o1', 'c1'))).toThrow();
  });

  it('refuses an empty ring', () => {
    expect(() => seal([], 'x', ad('o1', 'c1'))).toThrow(/empty/);
  });
});

describe('key rotation', () => {
  it('keeps old ciphertexts readable, seals new ones under the new key, and lets the old key go once re-sealed', () => {
    const k1Ring = [generateKey('k1')];
    const rows = Array.from({ length: 5 }, (_, i) => ({ org: `o${i % 2}`, id: `c${i}`, secret: `secret-${i}` }));
    const stored = new Map(rows.map((r) => [r.id, seal(k1Ring, r.secret, ad(r.org, r.id))]));
    expect([...stored.values()].every((s) => sealedKeyId(s) === 'k1')).toBe(true);

    // Deploy the rotated ring (what the env variable would now hold).
    const rotated = parseKeyRing(
      rotateKeyRing(k1Ring, 'k2')
        .map((k) => `${k.id}:${Buffer.from(k.key).toString('base64')}`)
        .join(','),
    );
    expect(rotated.map((k) => k.id)).toEqual(['k2', 'k1']);
    for (const r of rows) expect(openText(rotated, stored.get(r.id)!, ad(r.org, r.id))).toBe(r.secret);
    expect(sealedKeyId(seal(rotated, 'new', ad('o9', 'c9')))).toBe('k2');

    // The re-seal job.
    for (const r of rows) {
      const before = stored.get(r.id)!;
      expect(needsReseal(rotated, before)).toBe(true);
      const after = reseal(rotated, before, ad(r.org, r.id));
      expect(sealedKeyId(after)).toBe('k2');
      expect(reseal(rotated, after, ad(r.org, r.id))).toBe(after);
      stored.set(r.id, after);
    }

    const k2Only = removeKey(rotated, 'k1');
    for (const r of rows) expect(openText(k2Only, stored.get(r.id)!, ad(r.org, r.id))).toBe(r.secret);
  });
});
