import { fromBase64Url, toBase64Url } from './base64';
import { assertKeyRing, findKey, KEY_ID_PATTERN, type KeyRing } from './key-ring';
import { sodiumLib } from './sodium';

const VERSION = 'v1';
const NONCE_BYTES = 24;
const TAG_BYTES = 16;

export type SealedDataProblem = 'format' | 'unknown-key' | 'authentication';

/** Sealed data did not open. The message never contains plaintext or key material. */
export class SealedDataError extends Error {
  constructor(
    readonly problem: SealedDataProblem,
    message: string,
  ) {
    super(message);
    this.name = 'SealedDataError';
  }
}

/**
 * Domain separation between what this library seals: the AEAD associated
 * data is `<purpose>/<version>.<key id>` NUL `<caller's associated data>`,
 * so a wrapped data key cannot be opened as ordinary sealed data and the
 * key id in the text cannot be edited without failing authentication.
 */
export type SealPurpose = 'data' | 'data-key';

/**
 * Seals with XChaCha20-Poly1305 under the ring's active key and a random
 * nonce. Result: `v1.<key id>.<nonce base64url>.<ciphertext base64url>`.
 * Requires a completed sodiumReady().
 */
export function seal(ring: KeyRing, plaintext: Uint8Array | string, ad: Uint8Array): string {
  return sealFor('data', ring, plaintext, ad);
}

/** Opens what {@link seal} produced with the same associated data; throws SealedDataError otherwise. */
export function open(ring: KeyRing, sealed: string, ad: Uint8Array): Uint8Array {
  return openFor('data', ring, sealed, ad);
}

/** {@link open}, decoding the plaintext as UTF-8. */
export function openText(ring: KeyRing, sealed: string, ad: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(open(ring, sealed, ad));
}

/** The id of the key that sealed this text (not secret; rotation re-seals what is not under the active key). */
export function sealedKeyId(sealed: string): string {
  return parseSealed(sealed).keyId;
}

/** True when the text is sealed under a key other than the ring's active one. */
export function needsReseal(ring: KeyRing, sealed: string): boolean {
  assertKeyRing(ring);
  return sealedKeyId(sealed) !== ring[0].id;
}

/** Re-seals under the active key (same associated data); returns the text unchanged if already there. */
export function reseal(ring: KeyRing, sealed: string, ad: Uint8Array): string {
  if (!needsReseal(ring, sealed)) return sealed;
  return seal(ring, open(ring, sealed, ad), ad);
}

export function sealFor(purpose: SealPurpose, ring: KeyRing, plaintext: Uint8Array | string, ad: Uint8Array): string {
  assertKeyRing(ring);
  const sodium = sodiumLib();
  const { id, key } = ring[0];
  const message = typeof plaintext === 'string' ? new TextEncoder().encode(plaintext) : plaintext;
  const nonce = sodium.randombytes_buf(NONCE_BYTES);
  const ciphertext = sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(message, boundAd(purpose, id, ad), null, nonce, key);
  return `${VERSION}.${id}.${toBase64Url(nonce)}.${toBase64Url(ciphertext)}`;
}

export function openFor(purpose: SealPurpose, ring: KeyRing, sealed: string, ad: Uint8Array): Uint8Array {
  const sodium = sodiumLib();
  const { keyId, nonce, ciphertext } = parseSealed(sealed);
  const ringKey = findKey(ring, keyId);
  if (!ringKey) {
    throw new SealedDataError('unknown-key', `sealed data names key id ${keyId}, which is not in the key ring`);
  }
  try {
    return sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(null, ciphertext, boundAd(purpose, keyId, ad), nonce, ringKey.key);
  } catch {
    throw new SealedDataError('authentication', `sealed data under key id ${keyId} failed authentication (wrong associated data, wrong key or altered)`);
  }
}

interface ParsedSealed {
  keyId: string;
  nonce: Uint8Array;
  ciphertext: Uint8Array;
}

function parseSealed(sealed: string): ParsedSealed {
  const malformed = (why: string) => new SealedDataError('format', `sealed data is malformed: ${why}`);
  if (typeof sealed !== 'string') throw malformed('not a string');
  const parts = sealed.split('.');
  if (parts.length !== 4) throw malformed(`expected ${VERSION}.<key id>.<nonce>.<ciphertext>`);
  const [version, keyId, nonceText, ciphertextText] = parts as [string, string, string, string];
  if (version !== VERSION) throw malformed('unsupported version');
  if (!KEY_ID_PATTERN.test(keyId)) throw malformed('bad key id');
  const nonce = fromBase64Url(nonceText);
  if (nonce?.length !== NONCE_BYTES) throw malformed('bad nonce');
  const ciphertext = fromBase64Url(ciphertextText);
  if (ciphertext === undefined || ciphertext.length < TAG_BYTES) throw malformed('bad ciphertext');
  return { keyId, nonce, ciphertext };
}

function boundAd(purpose: SealPurpose, keyId: string, ad: Uint8Array): Uint8Array {
  if (!(ad instanceof Uint8Array)) throw new TypeError('associated data must be bytes; build it with associatedData()');
  const header = new TextEncoder().encode(`${purpose}/${VERSION}.${keyId}\0`);
  const bound = new Uint8Array(header.length + ad.length);
  bound.set(header);
  bound.set(ad, header.length);
  return bound;
}
