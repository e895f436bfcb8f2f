import {
  bodySha256Hex,
  PUBLIC_SIGNATURE,
  parseAuthorization,
  signatureKindAllowed,
  signingString,
  signingStringSha256,
  timestampWithinSkew,
  verifySignature,
} from '@meter/signing';
import type { CredentialRecord } from '../credentials/credential-record';
import { authFailure, CREDENTIAL_REVOKED, type AuthFailure } from './auth-failure';
import type { Caller } from './caller';
import { inAnyRange, parseAddress } from '@meter/config';

export const REQUIRED_SCOPE = 'meter:consumption:read';

export interface SignedRequest {
  method: string;
  /** The request target exactly as received (`request.raw.url`). */
  target: string;
  body: Buffer | undefined;
  authorization: string | string[] | undefined;
  /** The `Origin` header, when a browser sent one. */
  origin?: string;
  /** The client address (see clientAddress), undefined when unknown; asked only when an allow-list needs it. */
  clientAddress: () => string | undefined;
}

export interface AuthContext {
  nowSeconds: number;
  maxSkewSeconds: number;
  findCredential(accessKey: string): CredentialRecord | undefined;
}

type AuthResult = { ok: true; caller: Caller } | AuthFailure;

/**
 * The gateway's verification of one request, in this order (docs/gateway-security.md):
 * header syntax, clock, credential (revoked, expired), signature, scope, origin, source address.
 * Pure: the clock and the credential view come in through `context`.
 * Details are fixed texts; none echoes the header, the key or a secret.
 */
const SIGNATURE_MISMATCH = 'the signature does not match the request';

/**
 * A signature the server computed and found different: the answer names the SHA-256 of the string it
 * signed (contract section 13), which a client compares with its own; the hash reveals nothing it did
 * not send. A request whose target cannot be signed (verifySignature refused it) has no such string.
 */
function signatureMismatch(request: SignedRequest, timestamp: number): AuthFailure {
  let text: string;
  try {
    text = signingString({ method: request.method, target: request.target, bodySha256: bodySha256Hex(request.body), timestamp });
  } catch {
    return authFailure(401, 'invalid_signature', SIGNATURE_MISMATCH);
  }
  return authFailure(401, 'invalid_signature', SIGNATURE_MISMATCH, { signing_string_sha256: signingStringSha256(text) });
}

export function authenticate(request: SignedRequest, context: AuthContext): AuthResult {
  const header = request.authorization;
  const parsed = parseAuthorization(Array.isArray(header) ? (header as unknown as string) : header);
  if (!parsed.ok) return authFailure(401, parsed.code, parsed.detail);

  if (!timestampWithinSkew(parsed.timestamp, context.nowSeconds, context.maxSkewSeconds)) {
    return authFailure(401, 'timestamp_out_of_range', `the timestamp must be within ${context.maxSkewSeconds} seconds of the server clock`);
  }

  const credential = context.findCredential(parsed.accessKey);
  if (!credential) return authFailure(401, 'unknown_access_key', 'the access key is not known');
  if (credential.status === 'revoked') return CREDENTIAL_REVOKED;
  if (credential.expiresAt !== null && context.nowSeconds * 1000 >= credential.expiresAt) {
    return authFailure(401, 'credential_expired', 'the credential expired; an admin can extend its expires_at or create another');
  }

  if (!signatureKindAllowed(parsed.accessKey, parsed.signature) || credential.type !== parsed.keyKind) {
    return authFailure(401, 'invalid_signature', SIGNATURE_MISMATCH);
  }
  if (parsed.signature !== PUBLIC_SIGNATURE) {
    if (credential.secretKey === undefined) return authFailure(401, 'invalid_signature', SIGNATURE_MISMATCH);
    const { method, target, body } = request;
    if (!verifySignature({ secretKey: credential.secretKey, method, target, body, timestamp: parsed.timestamp, signature: parsed.signature })) {
      return signatureMismatch(request, parsed.timestamp);
    }
  }

  if (!credential.scopes.includes(REQUIRED_SCOPE)) {
    return authFailure(403, 'insufficient_scope', `the credential lacks scope ${REQUIRED_SCOPE}`);
  }

  // Origins limit browsers (which always send Origin on a cross-origin call); other clients send none.
  if (request.origin !== undefined && credential.allowedOrigins.length > 0 && !credential.allowedOrigins.includes(request.origin)) {
    return authFailure(403, 'origin_not_allowed', "the request's Origin is not among the credential's allowed_origins");
  }

  if (credential.cidrsInvalid || credential.allowedRanges.length > 0) {
    const address = parseAddress(request.clientAddress());
    if (credential.cidrsInvalid || !address || !inAnyRange(address, credential.allowedRanges)) {
      return authFailure(403, 'source_address_not_allowed', "the source address is outside the credential's allowed_cidrs");
    }
  }

  return {
    ok: true,
    caller: {
      orgId: credential.orgId,
      credentialId: credential.credentialId,
      accessKey: credential.accessKey,
      type: credential.type,
      ...(credential.deviceIds ? { deviceIds: credential.deviceIds } : {}),
    },
  };
}
