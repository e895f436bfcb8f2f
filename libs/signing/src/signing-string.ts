import { createHash } from 'node:crypto';
import { isValidTimestamp, METHOD_RE, SHA256_HEX_RE, TARGET_RE } from './grammar';
import { splitTarget } from './target';

export interface SigningStringInput {
  /** HTTP method; signed uppercased. */
  method: string;
  /** Raw origin-form request target, path plus optional `?query`, as sent on the wire. */
  target: string;
  /** Lowercase hex SHA-256 of the raw body (see `bodySha256Hex`). */
  bodySha256: string;
  /** Unix seconds, the same value as the header's `timestamp`. */
  timestamp: number;
}

/**
 * Builds the string to sign (libs/signing/README.md):
 * `METHOD \n PATH \n QUERY \n body_sha256 \n TIMESTAMP`, no trailing LF.
 *
 * Throws `TypeError` on input that cannot come from a well-formed HTTP request
 * (method not a token, target not origin-form visible ASCII, hash not 64
 * lowercase hex, timestamp not an integer in 0..999999999999), so no two
 * distinct requests can produce the same signing string.
 */
export function signingString(input: SigningStringInput): string {
  const { method, target, bodySha256, timestamp } = input;
  if (typeof method !== 'string' || !METHOD_RE.test(method)) {
    throw new TypeError('method must be an HTTP method token such as GET or POST');
  }
  if (typeof target !== 'string' || !TARGET_RE.test(target)) {
    throw new TypeError(
      'target must be the origin-form request target as sent (e.g. /meter/v1/devices?limit=10): ' + 'starting with "/", visible ASCII, no fragment',
    );
  }
  if (typeof bodySha256 !== 'string' || !SHA256_HEX_RE.test(bodySha256)) {
    throw new TypeError('bodySha256 must be 64 lowercase hex characters');
  }
  if (!isValidTimestamp(timestamp)) {
    throw new TypeError('timestamp must be an integer number of Unix seconds between 0 and 999999999999');
  }
  const { path, query } = splitTarget(target);
  return [method.toUpperCase(), path, query, bodySha256, String(timestamp)].join('\n');
}

/**
 * Lowercase hex SHA-256 of a signing string (as UTF-8): what the gateway's
 * `401 invalid_signature` answers carry as `signing_string_sha256`. Equal to
 * the client's own, the strings match and the secret differs; otherwise a
 * line differs (README.md, "When the gateway answers invalid_signature").
 */
export function signingStringSha256(signingString: string): string {
  return createHash('sha256').update(signingString, 'utf8').digest('hex');
}
