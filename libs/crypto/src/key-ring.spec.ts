import { describe, expect, it } from 'vitest';
import { inspect } from 'node:util';
import { activeKey, devKeyId, formatKeyRing, generateKey, parseKeyRing, removeKey, rotateKeyRing } from './key-ring';

const KEY_A = Buffer.alloc(32, 0xa1).toString('base64');
const KEY_B = Buffer.alloc(32, 0xb2).toString('base64url');

describe('parseKeyRing', () => {
  it('parses ids and 32-byte keys in order, the first being active', () => {
    const ring = parseKeyRing(`k2:${KEY_A}, k1:${KEY_B}\n`);
    expect(ring.map((k) => k.id)).toEqual(['k2', 'k1']);
    expect(Buffer.from(ring[0].key)).toEqual(Buffer.alloc(32, 0xa1));
    expect(Buffer.from(ring[1].key)).toEqual(Buffer.alloc(32, 0xb2));
    expect(activeKey(ring).id).toBe('k2');
  });

  it('round-trips through formatKeyRing', () => {
    const ring = [generateKey('new_1'), generateKey('old-0')];
    const again = parseKeyRing(formatKeyRing(ring));
    expect(again.map((k) => k.id)).toEqual(['new_1', 'old-0']);
    expect(again.map((k) => Buffer.from(k.key).toString('hex'))).toEqual(ring.map((k) => Buffer.from(k.key).toString('hex')));
  });

  const secretish = Buffer.alloc(31, 0x5c).toString('base64'); // a plausible key, one byte short
  const cases: [string, string, RegExp][] = [
    ['empty', '   ', /empty/],
    ['missing colon', secretish, /entry 1: expected <key id>:<base64 key>/],
    ['bad id', `bad.id:${KEY_A}`, /entry 1: key id must match/],
    ['id too long', `${'a'.repeat(33)}:${KEY_A}`, /key id must match/],
    ['short key', `k1:${secretish}`, /entry 1 \(key id k1\): key must be exactly 32 bytes, got 31/],
    ['long key', `k1:${Buffer.alloc(33, 7).toString('base64')}`, /got 33/],
    ['not base64', `k1:${KEY_A.slice(0, 20)}!${KEY_A.slice(21)}`, /not valid base64/],
    ['non-canonical base64', `k1:${KEY_A.slice(0, 42)}F=`, /not valid base64/],
    ['duplicate id', `k1:${KEY_A},k1:${KEY_B}`, /entry 2: duplicate key id k1/],
    ['trailing comma', `k1:${KEY_A},`, /entry 2: expected/],
  ];
  for (const [label, text, message] of cases) {
    it(`rejects ${label} without echoing key material`, () => {
      let error: unknown;
      try {
        parseKeyRing(text);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(Error);
      const text_ = (error as Error).message;
      expect(text_).toMatch(message);
      for (const secret of [KEY_A, KEY_B, secretish, KEY_A.slice(0, 16), secretish.slice(0, 16)]) {
        expect(text_).not.toContain(secret);
      }
    });
  }
});

describe('ring keys', () => {
  it('never print their bytes through JSON or inspect', () => {
    const ring = parseKeyRing(`k1:${KEY_A}`);
    const hex = Buffer.alloc(32, 0xa1).toString('hex');
    for (const shown of [JSON.stringify(ring), inspect(ring), `${inspect({ ring }, { depth: 5 })}`]) {
      expect(shown).toContain('redacted');
      expect(shown).not.toContain(KEY_A);
      expect(shown).not.toContain('161, 161');
      expect(shown).not.toContain(hex);
    }
  });

  it('generateKey makes distinct 32-byte keys and checks the id', () => {
    const a = generateKey('a');
    expect(a.key).toHaveLength(32);
    expect(Buffer.from(a.key).equals(Buffer.from(generateKey('a').key))).toBe(false);
    expect(() => generateKey('no spaces')).toThrow(/key id/);
  });
});

describe('rotateKeyRing', () => {
  it('puts a fresh active key first and keeps the old ones', () => {
    const ring = [generateKey('k1')];
    const rotated = rotateKeyRing(ring);
    expect(rotated.map((k) => k.id)).toEqual([expect.stringMatching(/^dev-\d{8}-[0-9a-f]{8}$/), 'k1']);
    expect(rotated[1]).toBe(ring[0]);
    expect(ring).toHaveLength(1);
    expect(rotateKeyRing(rotated, '2025-06').map((k) => k.id)).toEqual(['2025-06', rotated[0]!.id, 'k1']);
  });

  it('refuses an id already in the ring', () => {
    expect(() => rotateKeyRing([generateKey('k1')], 'k1')).toThrow(/already in the ring/);
  });

  it('names new keys by date and at random, so two checkouts never share an id', () => {
    const at = new Date('2026-11-22T23:59:59Z');
    expect(devKeyId(at)).toMatch(/^dev-20261122-[0-9a-f]{8}$/);
    expect(new Set(Array.from({ length: 100 }, () => devKeyId(at))).size).toBe(100);
    expect(() => generateKey(devKeyId())).not.toThrow();
  });
});

describe('removeKey', () => {
  it('drops a retired key but never the active one', () => {
    const ring = rotateKeyRing([generateKey('k1')], 'k2');
    expect(removeKey(ring, 'k1').map((k) => k.id)).toEqual(['k2']);
    expect(() => removeKey(ring, 'k2')).toThrow(/active key/);
    expect(() => removeKey(ring, 'k7')).toThrow(/not in the ring/);
  });
});
