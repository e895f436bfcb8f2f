/** The 401/403 codes of the gateway (docs/gateway-security.md). */
export type AuthFailureCode =
  | 'missing_authorization'
  | 'malformed_authorization'
  | 'unknown_access_key'
  | 'invalid_signature'
  | 'timestamp_out_of_range'
  | 'credential_revoked'
  | 'credential_expired'
  | 'insufficient_scope'
  | 'source_address_not_allowed'
  | 'origin_not_allowed';

export interface AuthFailure {
  ok: false;
  status: 401 | 403;
  code: AuthFailureCode;
  detail: string;
  /** Members the problem answer adds (`signing_string_sha256` of `invalid_signature`). */
  extensions?: Record<string, string>;
}

export function authFailure(status: 401 | 403, code: AuthFailureCode, detail: string, extensions?: Record<string, string>): AuthFailure {
  return extensions ? { ok: false, status, code, detail, extensions } : { ok: false, status, code, detail };
}

/** A revoked credential, whether the view or the credential's stamp says so. */
export const CREDENTIAL_REVOKED: AuthFailure = authFailure(401, 'credential_revoked', 'the credential has been revoked');
