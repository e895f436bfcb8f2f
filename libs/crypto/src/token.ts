import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random base64url token (session tokens, credential ids); at least 16 bytes of entropy. */
export function randomToken(bytes = 32): string {
  if (!Number.isInteger(bytes) || bytes < 16 || bytes > 1024) {
    throw new RangeError('randomToken needs an integer number of bytes from 16 to 1024');
  }
  return randomBytes(bytes).toString('base64url');
}

/** Lower-case hex SHA-256 of a UTF-8 string or of bytes (e.g. how session tokens are stored). */
export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Compares without an early exit; strings are compared as UTF-8 bytes.
 * Only the length can leak: unequal lengths are false after a comparison
 * of `a` with itself, so the time still depends only on `a`.
 */
export function constantTimeEqual(a: string | Uint8Array, b: string | Uint8Array): boolean {
  const left = typeof a === 'string' ? Buffer.from(a, 'utf8') : a;
  const right = typeof b === 'string' ? Buffer.from(b, 'utf8') : b;
  const sameLength = left.length === right.length;
  return timingSafeEqual(left, sameLength ? right : left) && sameLength;
}
