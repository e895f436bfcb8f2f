import { randomBytes } from 'node:crypto';
import { KEY_BYTES, ringKey, type KeyRing } from './key-ring';
import { openFor, SealedDataError, sealFor } from './seal';

/**
 * Envelope encryption for the vault: each organization's entries are
 * sealed under its own data key, and only the data key is sealed
 * ("wrapped") under the root key ring, so rotating the root ring
 * re-wraps data keys and never touches entries.
 */
export function generateDataKey(): Uint8Array {
  return new Uint8Array(randomBytes(KEY_BYTES));
}

/** Seals a data key under the ring's active key; `ad` should name its owner, e.g. associatedData({ org }). */
export function wrapDataKey(ring: KeyRing, dataKey: Uint8Array, ad: Uint8Array): string {
  if (dataKey.length !== KEY_BYTES) throw new Error(`data key must be exactly ${KEY_BYTES} bytes`);
  return sealFor('data-key', ring, dataKey, ad);
}

export function unwrapDataKey(ring: KeyRing, wrapped: string, ad: Uint8Array): Uint8Array {
  const dataKey = openFor('data-key', ring, wrapped, ad);
  if (dataKey.length !== KEY_BYTES) throw new SealedDataError('format', 'unwrapped data key has the wrong length');
  return dataKey;
}

/**
 * A one-key ring over a data key, to seal and open entries with the
 * ordinary seal()/open(); `id` is stored in each entry's sealed text
 * (e.g. the data key's version), so use something stable per data key.
 */
export function dataKeyRing(id: string, dataKey: Uint8Array): KeyRing {
  return [ringKey(id, dataKey)];
}
