// Internal syntax rules shared by the signer, the verifier and the header parser.
// Not re-exported: callers use the predicates built on them.

import { MAX_TIMESTAMP } from './constants';

/** `sk_live_` or `pk_live_` followed by 1..128 token characters. */
export const ACCESS_KEY_RE = /^(?:sk_live_|pk_live_)[A-Za-z0-9_-]{1,128}$/;

/** 64 lowercase hex digits: an HMAC-SHA256 signature or a SHA-256 body hash. */
export const SHA256_HEX_RE = /^[0-9a-f]{64}$/;

/** Decimal Unix seconds as written in the header: no sign, no leading zeros, at most 12 digits. */
export const TIMESTAMP_TEXT_RE = /^(?:0|[1-9][0-9]{0,11})$/;

/** HTTP method token (RFC 9110 `token`). */
export const METHOD_RE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Origin-form request target: starts with `/`, visible ASCII only (no space,
 * no control character, nothing above 0x7E) and no `#` (a fragment is never sent).
 */
export const TARGET_RE = /^\/[\x21\x22\x24-\x7e]*$/;

export function isValidTimestamp(timestamp: unknown): timestamp is number {
  return typeof timestamp === 'number' && Number.isSafeInteger(timestamp) && timestamp >= 0 && timestamp <= MAX_TIMESTAMP;
}
