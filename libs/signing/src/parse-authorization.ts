import { accessKeyKind, type AccessKeyKind } from './access-key';
import { PUBLIC_SIGNATURE, SECRET_ACCESS_KEY_PREFIX } from './constants';
import { SHA256_HEX_RE, TIMESTAMP_TEXT_RE } from './grammar';

export type AuthorizationErrorCode = 'missing_authorization' | 'malformed_authorization';

export interface ParsedAuthorization {
  ok: true;
  accessKey: string;
  /** Kind of credential the access key prefix names. */
  keyKind: AccessKeyKind;
  /** 64 lowercase hex, or the literal `public`. Whether it fits the key kind is the caller's policy (`signatureKindAllowed`). */
  signature: string;
  /** Unix seconds; its decimal string is exactly the header text (no leading zeros are admitted). */
  timestamp: number;
}

export interface AuthorizationParseError {
  ok: false;
  code: AuthorizationErrorCode;
  /** Fixed, human-readable reason. Never echoes the received header. */
  detail: string;
}

export type AuthorizationParseResult = ParsedAuthorization | AuthorizationParseError;

/** Longest header worth looking at; a valid one is at most 254 characters. */
const MAX_HEADER_LENGTH = 1024;

// ASCII-only case-insensitive match (no `u` flag, so e.g. U+017F does not fold to `s`).
const SCHEME_RE = /^SVC-HMAC$/i;

const FIELD_NAMES = ['access_key', 'signature', 'timestamp'] as const;
type FieldName = (typeof FIELD_NAMES)[number];

/**
 * The form every signer produces (`authorizationHeader`): the fields in canonical order, each value
 * already in its own grammar. A header it matches is valid, and parses to what the general grammar
 * gives it; anything else (another order, an error to explain) takes the general path.
 */
const CANONICAL_RE =
  /^[Ss][Vv][Cc]-[Hh][Mm][Aa][Cc] access_key=((?:sk|pk)_live_[A-Za-z0-9_-]{1,128}) signature=([0-9a-f]{64}|public) timestamp=(0|[1-9][0-9]{0,11})$/;

const FORMAT = 'expected "SVC-HMAC access_key=<key> signature=<sig> timestamp=<unix seconds>"';

function malformed(detail: string): AuthorizationParseError {
  return { ok: false, code: 'malformed_authorization', detail };
}

function isFieldName(name: string): name is FieldName {
  return (FIELD_NAMES as readonly string[]).includes(name);
}

/**
 * Parses an `Authorization` header value of the SVC-HMAC scheme. Pure syntax:
 * it does not look the key up, check the signature or the clock.
 *
 * Grammar (see README "Header syntax"):
 * - absent, `null` or `''` -> `missing_authorization`;
 * - scheme `SVC-HMAC` (ASCII case-insensitive, RFC 9110 11.1), then exactly
 *   three `name=value` fields, every separator a single space, no leading or
 *   trailing whitespace, no quoting;
 * - the fields `access_key`, `signature`, `timestamp`, each exactly once, in
 *   any order (names are lowercase, case-sensitive); any other field is rejected;
 * - access_key: `sk_live_`/`pk_live_` + 1..128 of `[A-Za-z0-9_-]`;
 * - signature: 64 lowercase hex or the literal `public`;
 * - timestamp: `0` or 1..12 decimal digits without a leading zero or sign.
 *
 * Never throws, whatever it is given.
 */
export function parseAuthorization(header: string | null | undefined): AuthorizationParseResult {
  const canonical = typeof header === 'string' ? CANONICAL_RE.exec(header) : null;
  if (canonical !== null) {
    const accessKey = canonical[1];
    return {
      ok: true,
      accessKey,
      keyKind: accessKey.startsWith(SECRET_ACCESS_KEY_PREFIX) ? 'secret' : 'public',
      signature: canonical[2],
      timestamp: Number(canonical[3]),
    };
  }
  return parseAnyOrder(header);
}

/** The whole grammar, with a reason for every refusal. Exported for the test that it agrees with the canonical path. */
export function parseAnyOrder(header: string | null | undefined): AuthorizationParseResult {
  const value: unknown = header;
  if (value === undefined || value === null || value === '') {
    return { ok: false, code: 'missing_authorization', detail: 'the Authorization header is required' };
  }
  if (typeof value !== 'string') {
    return malformed('the Authorization header must be a single value');
  }
  if (value.length > MAX_HEADER_LENGTH) {
    return malformed('the Authorization header is too long');
  }

  const parts = value.split(' ');
  if (parts.includes('')) {
    return malformed(`fields must be separated by single spaces, without leading or trailing space; ${FORMAT}`);
  }
  if (!SCHEME_RE.test(parts[0])) {
    return malformed(`unsupported authorization scheme; ${FORMAT}`);
  }
  if (parts.length !== 4) {
    return malformed(`exactly three fields are required; ${FORMAT}`);
  }

  const fields: Partial<Record<FieldName, string>> = {};
  for (const part of parts.slice(1)) {
    const eq = part.indexOf('=');
    if (eq <= 0) return malformed(`each field must be name=value; ${FORMAT}`);
    const name = part.slice(0, eq);
    if (!isFieldName(name)) return malformed(`unknown field; ${FORMAT}`);
    if (fields[name] !== undefined) return malformed(`field ${name} is given more than once`);
    fields[name] = part.slice(eq + 1);
  }

  // Three distinct known names among three fields: all are present.
  const accessKey = fields.access_key ?? '';
  const signature = fields.signature ?? '';
  const timestampText = fields.timestamp ?? '';

  const keyKind = accessKeyKind(accessKey);
  if (keyKind === undefined) {
    return malformed('access_key must be sk_live_ or pk_live_ followed by 1 to 128 of [A-Za-z0-9_-]');
  }
  if (signature !== PUBLIC_SIGNATURE && !SHA256_HEX_RE.test(signature)) {
    return malformed('signature must be 64 lowercase hex characters or the literal "public"');
  }
  if (!TIMESTAMP_TEXT_RE.test(timestampText)) {
    return malformed('timestamp must be Unix seconds: 1 to 12 decimal digits, no sign or leading zero');
  }

  return { ok: true, accessKey, keyKind, signature, timestamp: Number(timestampText) };
}
