import { PUBLIC_SIGNATURE, SCHEME } from './constants';
import { ACCESS_KEY_RE, isValidTimestamp, SHA256_HEX_RE } from './grammar';

export interface AuthorizationHeaderInput {
  accessKey: string;
  /** 64 lowercase hex, or the literal `public` for a public key. */
  signature: string;
  /** Unix seconds, the value that was signed. */
  timestamp: number;
}

/**
 * Formats the header value in the canonical field order:
 * `SVC-HMAC access_key=<k> signature=<s> timestamp=<t>`.
 * Throws `TypeError` rather than emit a value `parseAuthorization` would reject.
 */
export function authorizationHeader(input: AuthorizationHeaderInput): string {
  const { accessKey, signature, timestamp } = input;
  if (typeof accessKey !== 'string' || !ACCESS_KEY_RE.test(accessKey)) {
    throw new TypeError('accessKey must be sk_live_ or pk_live_ followed by 1..128 of [A-Za-z0-9_-]');
  }
  if (typeof signature !== 'string' || !(signature === PUBLIC_SIGNATURE || SHA256_HEX_RE.test(signature))) {
    throw new TypeError('signature must be 64 lowercase hex characters or the literal "public"');
  }
  if (!isValidTimestamp(timestamp)) {
    throw new TypeError('timestamp must be an integer number of Unix seconds between 0 and 999999999999');
  }
  return `${SCHEME} access_key=${accessKey} signature=${signature} timestamp=${timestamp}`;
}
