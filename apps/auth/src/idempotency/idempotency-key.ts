import { createHash } from 'node:crypto';
import { validationFailed } from '@meter/http';

/** The longest `Idempotency-Key` taken (contract section 13). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

const PRINTABLE = /^[\x21-\x7e]+$/;

/** The `Idempotency-Key` header: 1 to 255 visible ASCII characters, sent once; anything else is a 400 naming it. */
export function parseIdempotencyKey(header: string | string[]): string {
  const field = 'Idempotency-Key';
  if (Array.isArray(header)) throw validationFailed([{ field, message: 'must be sent once' }]);
  if (header.length === 0 || header.length > MAX_IDEMPOTENCY_KEY_LENGTH || !PRINTABLE.test(header)) {
    throw validationFailed([{ field, message: `must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} visible ASCII characters (a UUID is a good key)` }]);
  }
  return header;
}

/**
 * What makes two requests "the same" for a key: the route and target they
 * were sent to and their JSON body (as parsed, so spacing does not count).
 */
export function requestFingerprint(method: string, target: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${target}\n${body === undefined ? '' : JSON.stringify(body)}`)
    .digest('hex');
}
