import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';
import { fromAnyBase64, toBase64 } from './base64';

export const KEY_BYTES = 32;
export const KEY_ID_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

export interface RingKey {
  readonly id: string;
  readonly key: Uint8Array;
}

/** Keys by id; the first one is the active key that seals, all of them open. */
export type KeyRing = readonly RingKey[];

/**
 * Builds a ring key whose bytes stay out of logs: JSON.stringify (pino)
 * and util.inspect (console.log) show a placeholder instead of the key.
 */
export function ringKey(id: string, key: Uint8Array): RingKey {
  if (!KEY_ID_PATTERN.test(id)) throw new Error('key id must match [A-Za-z0-9_-]{1,32}');
  if (key.length !== KEY_BYTES) throw new Error(`key ${id} must be exactly ${KEY_BYTES} bytes`);
  const redacted = { id, key: `[redacted ${KEY_BYTES} bytes]` };
  return Object.defineProperties(
    { id, key },
    {
      toJSON: { value: () => redacted },
      [inspect.custom]: { value: () => redacted },
    },
  );
}

export function generateKey(id: string): RingKey {
  return ringKey(id, new Uint8Array(randomBytes(KEY_BYTES)));
}

/**
 * Parses `kid1:base64key,kid2:base64key` (standard base64 or base64url;
 * surrounding white space ignored). Error messages name the entry and,
 * once it is valid, the key id, never the key text.
 */
export function parseKeyRing(text: string): KeyRing {
  const entries = text.trim() === '' ? [] : text.split(',');
  if (entries.length === 0) throw new Error('key ring is empty');
  const ring: RingKey[] = [];
  entries.forEach((raw, index) => {
    const where = `entry ${index + 1}`;
    const entry = raw.trim();
    const colon = entry.indexOf(':');
    if (colon < 0) throw new Error(`${where}: expected <key id>:<base64 key>`);
    const id = entry.slice(0, colon);
    if (!KEY_ID_PATTERN.test(id)) throw new Error(`${where}: key id must match [A-Za-z0-9_-]{1,32}`);
    const key = fromAnyBase64(entry.slice(colon + 1).trim());
    if (key === undefined) throw new Error(`${where} (key id ${id}): key is not valid base64`);
    if (key.length !== KEY_BYTES) {
      throw new Error(`${where} (key id ${id}): key must be exactly ${KEY_BYTES} bytes, got ${key.length}`);
    }
    if (ring.some((k) => k.id === id)) throw new Error(`${where}: duplicate key id ${id}`);
    ring.push(ringKey(id, key));
  });
  return ring;
}

export function formatKeyRing(ring: KeyRing): string {
  assertKeyRing(ring);
  return ring.map((k) => `${k.id}:${toBase64(k.key)}`).join(',');
}

/**
 * A new ring whose active key is fresh, keeping every old key so data
 * sealed under them still opens until it is re-sealed.
 */
export function rotateKeyRing(ring: KeyRing, newId: string = devKeyId()): KeyRing {
  assertKeyRing(ring);
  if (ring.some((k) => k.id === newId)) throw new Error(`key id ${newId} is already in the ring`);
  return [generateKey(newId), ...ring];
}

/** Drops a retired key once nothing is sealed under it any more; the active key cannot be removed. */
export function removeKey(ring: KeyRing, id: string): KeyRing {
  assertKeyRing(ring);
  if (ring[0].id === id) throw new Error(`key ${id} is the active key and cannot be removed`);
  if (!ring.some((k) => k.id === id)) throw new Error(`key id ${id} is not in the ring`);
  return ring.filter((k) => k.id !== id);
}

export function activeKey(ring: KeyRing): RingKey {
  assertKeyRing(ring);
  return ring[0];
}

export function findKey(ring: KeyRing, id: string): RingKey | undefined {
  return ring.find((k) => k.id === id);
}

/**
 * The id of a key this platform makes itself (development rings and their
 * rotations): `dev-<UTC date>-<8 random hex digits>`, e.g.
 * `dev-20261122-9f86d081`. Unique across checkouts, so a value sealed under
 * another checkout's ring names a key id this ring does not have (and is
 * reported as such) instead of failing as if it had been altered; the date
 * says how old the key is.
 */
export function devKeyId(now: Date = new Date()): string {
  return `dev-${now.toISOString().slice(0, 10).replaceAll('-', '')}-${randomBytes(4).toString('hex')}`;
}

export function assertKeyRing(ring: KeyRing): asserts ring is readonly [RingKey, ...RingKey[]] {
  if (ring.length === 0) throw new Error('key ring is empty');
  const ids = new Set<string>();
  for (const k of ring) {
    if (!KEY_ID_PATTERN.test(k.id)) throw new Error('key id must match [A-Za-z0-9_-]{1,32}');
    if (k.key.length !== KEY_BYTES) throw new Error(`key ${k.id} must be exactly ${KEY_BYTES} bytes`);
    if (ids.has(k.id)) throw new Error(`duplicate key id ${k.id}`);
    ids.add(k.id);
  }
}
