import { createHash } from 'node:crypto';
import { EMPTY_BODY_SHA256 } from './constants';

const BODY_TYPE = 'body must be a Uint8Array/Buffer, a string, or undefined';

/** A raw request body: bytes, or a string that is sent (and hashed) as UTF-8. */
export type BodyInput = Uint8Array | string | null | undefined;

/**
 * Lowercase hex SHA-256 of the raw body bytes. A string is hashed as its UTF-8
 * bytes (what `fetch` sends for a string body); `undefined`, `null` and an empty
 * body all give the hash of the empty string.
 *
 * Hash the exact bytes sent or received: a JSON body re-serialised with other
 * whitespace or key order has another hash.
 */
export function bodySha256Hex(body?: BodyInput): string {
  // Most requests are GETs: their hash is a constant, not a fresh digest.
  if (body === undefined || body === null || body.length === 0) {
    if (body !== undefined && body !== null && typeof body !== 'string' && !ArrayBuffer.isView(body)) throw new TypeError(BODY_TYPE);
    return EMPTY_BODY_SHA256;
  }
  const hash = createHash('sha256');
  if (typeof body === 'string') {
    hash.update(body, 'utf8');
  } else if (ArrayBuffer.isView(body)) {
    hash.update(body);
  } else if (body !== undefined && body !== null) {
    throw new TypeError(BODY_TYPE);
  }
  return hash.digest('hex');
}
