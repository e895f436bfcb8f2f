import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { ProblemException, problemResponse, RETRY_AFTER_HEADER, type ProblemExample } from '@meter/http';
import { DEFAULT_MAX_SKEW_SECONDS, EMPTY_BODY_SHA256, parseAuthorization, signingString, signingStringSha256 } from '@meter/signing';
import { RATE_LIMIT_STATE } from '../request/request-params.openapi';
import type { AuthFailureCode } from './auth-failure';
import { REQUIRED_SCOPE } from './authenticate';
import { credentialStateUnavailable } from './security-pipeline';

/** A refusal of the SVC-HMAC check as the security pipeline sends it. */
function refusal(status: 401 | 403, code: AuthFailureCode, summary: string, detail: string, extensions?: Record<string, string>): ProblemExample {
  return { summary, problem: new ProblemException(status, code, detail, extensions) };
}

/** The string the gateway signs for `GET /meter/v1/devices?limit=50` at 2026-01-01T00:00:00Z. */
const EXAMPLE_SIGNING_STRING = signingString({ method: 'GET', target: '/meter/v1/devices?limit=50', bodySha256: EMPTY_BODY_SHA256, timestamp: 1_767_225_600 });

/** What parseAuthorization says of a header (the first check of the pipeline). */
function headerRefusal(header: string | undefined, summary: string): ProblemExample {
  const parsed = parseAuthorization(header);
  if (parsed.ok) throw new Error(`${header} is a well-formed Authorization header`);
  return refusal(401, parsed.code, summary, parsed.detail);
}

const EXAMPLES = {
  missing_authorization: headerRefusal(undefined, 'No Authorization header'),
  malformed_authorization: headerRefusal('Bearer 4f2a9c', 'Another scheme, or a header out of the SVC-HMAC grammar'),
  timestamp_out_of_range: refusal(
    401,
    'timestamp_out_of_range',
    `A timestamp more than ${DEFAULT_MAX_SKEW_SECONDS} s from the server clock (sign every request afresh)`,
    `the timestamp must be within ${DEFAULT_MAX_SKEW_SECONDS} seconds of the server clock`,
  ),
  unknown_access_key: refusal(401, 'unknown_access_key', 'An access key no credential has', 'the access key is not known'),
  credential_revoked: refusal(401, 'credential_revoked', 'A revoked credential', 'the credential has been revoked'),
  credential_expired: refusal(
    401,
    'credential_expired',
    'A credential past its expires_at',
    'the credential expired; an admin can extend its expires_at or create another',
  ),
  invalid_signature: refusal(
    401,
    'invalid_signature',
    'A signature over other bytes than those sent (a re-encoded query, a re-serialised body, the wrong secret)',
    'the signature does not match the request',
    { signing_string_sha256: signingStringSha256(EXAMPLE_SIGNING_STRING) },
  ),
  insufficient_scope: refusal(403, 'insufficient_scope', `A credential without ${REQUIRED_SCOPE}`, `the credential lacks scope ${REQUIRED_SCOPE}`),
  source_address_not_allowed: refusal(
    403,
    'source_address_not_allowed',
    "A request from outside the credential's allowed_cidrs",
    "the source address is outside the credential's allowed_cidrs",
  ),
  origin_not_allowed: refusal(
    403,
    'origin_not_allowed',
    "A browser call from an Origin outside the credential's allowed_origins",
    "the request's Origin is not among the credential's allowed_origins",
  ),
} satisfies Record<AuthFailureCode, ProblemExample>;

const withStatus = (status: number): Record<string, ProblemExample> =>
  Object.fromEntries(Object.entries(EXAMPLES).filter(([, example]) => example.problem.getStatus() === status));

const codes = (status: number) =>
  Object.keys(withStatus(status))
    .map((code) => `\`${code}\``)
    .join(', ');

/** `Retry-After` in the seconds the sliding window frees a request; `retry_after` in the body says the same. */
function rateLimited(summary: string, detail: string, seconds: number): ProblemExample {
  return {
    summary,
    problem: new ProblemException(429, 'rate_limited', `${detail}; retry after ${seconds} s`, { retry_after: seconds }, { 'retry-after': String(seconds) }),
  };
}

/**
 * The answers of the SVC-HMAC check and the rate limits, which every route of
 * the gateway may give before its controller runs (security-pipeline.ts).
 */
export const SECURITY_RESPONSES: Record<number, ResponseConfig> = {
  401: problemResponse(
    `The request is not authenticated: ${codes(401)}. Refusals are counted against the source address's budget (\`RateLimit-Policy: "auth-failures"\`).`,
    withStatus(401),
    {
      'WWW-Authenticate': { required: true, description: 'The scheme to authenticate with.', schema: { type: 'string' }, example: 'SVC-HMAC' },
      ...RATE_LIMIT_STATE,
    },
  ),
  403: problemResponse(`The credential may not make this request: ${codes(403)}. Only a validly signed request gets a 403.`, withStatus(403), RATE_LIMIT_STATE),
  429: problemResponse(
    '`rate_limited`: the credential made 60 requests in the last 60 s (RATE_LIMIT_PER_MINUTE), or its source address failed to authenticate 120 times ' +
      '(AUTH_FAILURE_LIMIT_PER_MINUTE). Wait `Retry-After` seconds, then sign the request again.',
    {
      credential: rateLimited('The credential used up its budget', 'the credential exceeded its rate limit', 12),
      source_address: rateLimited('Too many refused requests from one address', 'too many failed authentications from this address', 41),
    },
    { ...RETRY_AFTER_HEADER, ...RATE_LIMIT_STATE },
  ),
  503: problemResponse(
    '`credential_state_unavailable`: the credential was changed (an allow-list) moments ago and its new state could not be fetched from the ' +
      'management service; nothing was counted. Retry after `Retry-After` seconds.',
    { credential_state_unavailable: { summary: 'A credential changed moments ago, its new state not available yet', problem: credentialStateUnavailable() } },
    RETRY_AFTER_HEADER,
  ),
};
