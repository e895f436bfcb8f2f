/** What a problem's `code` means and what the caller can do about it: a row of the error page. */
export interface ErrorCode {
  /** What happened, in a sentence (markdown code spans allowed). */
  meaning: string;
  /** What to do about it. */
  action: string;
  /** Any request may get it, whatever its operation documents (the page of every API lists it). */
  anyRequest?: true;
}

const RETRY_LATER = 'Retry after the `Retry-After` seconds; nothing was done, so the same request is safe to send again.';
const REPORT = 'Retry later; if it persists, report it with the `request_id` of the answer.';

/**
 * Every `code` the platform's problem answers carry (contract section 7),
 * described once: the page each public API serves at /docs/errors, which a
 * problem's `type` (`/docs/errors#<code>`) points at, is made from it.
 */
export const ERROR_CODES: Readonly<Record<string, ErrorCode>> = {
  // Authentication and permission
  missing_authorization: {
    meaning: 'The request has no `Authorization` header.',
    action:
      'Send one: `SVC-HMAC access_key=… signature=… timestamp=…` on the consumption API (libs/signing/README.md), `Bearer <access_token>` of `POST /login` on the management API.',
  },
  malformed_authorization: {
    meaning: "The `Authorization` header is not in the scheme's grammar.",
    action:
      'Send exactly `SVC-HMAC access_key=<key> signature=<64 lowercase hex or public> timestamp=<Unix seconds>` (one space between fields), or `Bearer <access_token>` on the management API.',
  },
  unknown_access_key: {
    meaning: 'No credential has this access key.',
    action: "Check the key (copy it again from the credential's creation answer). A credential created moments ago is known within a second.",
  },
  invalid_signature: {
    meaning: 'The signature does not match the request as the gateway received it, or its kind does not fit the key (`public` only with a `pk_live_` key).',
    action:
      'Compare `signing_string_sha256` of the answer with the SHA-256 of your signing string: equal, the secret key is wrong; different, sign the exact bytes you send (the path and query as sent, the raw body). libs/signing/README.md shows how.',
  },
  timestamp_out_of_range: {
    meaning: "The signature's timestamp is more than 300 seconds away from the gateway's clock.",
    action: "Set the client's clock right (NTP) and sign every request afresh, retries included.",
  },
  credential_revoked: {
    meaning: 'The credential has been revoked: the gateway refuses it (401), and the management API does not change it (409).',
    action: 'Create a new credential (`POST /org-api-credentials`) and use its keys.',
  },
  credential_expired: {
    meaning: 'The credential is past its `expires_at`.',
    action: 'Create a new credential, or give this one a later `expires_at` (`PATCH /org-api-credentials/{id}`).',
  },
  insufficient_scope: {
    meaning: 'The credential lacks the scope the route needs (`meter:consumption:read`).',
    action: 'Create a credential with that scope; the scopes of a credential do not change.',
  },
  source_address_not_allowed: {
    meaning: "The request came from an address outside the credential's `allowed_cidrs`.",
    action: 'Call from an allowed address, or change the allow-list (`PATCH /org-api-credentials/{id}`).',
  },
  origin_not_allowed: {
    meaning: "The request's `Origin` is not among the credential's `allowed_origins`.",
    action: "Call from an allowed origin, or add it to the credential's `allowed_origins`.",
  },
  csrf_failed: {
    meaning: "The admin console's request lacked a valid CSRF token.",
    action: 'Reload the console page and try again.',
  },
  invalid_credentials: {
    meaning: 'The email or the password is wrong (the answer does not say which).',
    action: 'Check both and log in again; repeated failures are throttled (429).',
  },
  invalid_session: {
    meaning: 'The session token is unknown, expired or ended.',
    action: 'Log in again (`POST /login`) and send the new `access_token`.',
  },
  unauthorized: { meaning: 'The request is not authenticated.', action: 'Authenticate it as the API requires.' },
  forbidden: { meaning: 'The caller may not make this request.', action: 'Use a credential or an account that may.' },

  // The request
  validation_failed: {
    meaning: 'The request is not valid: `errors` lists every field, parameter or header that is wrong (`{field, message}`).',
    action: 'Correct each field `errors` names and send the request again.',
    anyRequest: true,
  },
  bad_request: { meaning: 'The request is not valid.', action: 'Correct it as `detail` says.' },
  not_found: {
    meaning: "No such route, or no such resource in your organization (another organization's id answers the same).",
    action: 'Check the path and the id.',
    anyRequest: true,
  },
  method_not_allowed: { meaning: 'The route does not take this method.', action: 'Use the method the API documents.' },
  request_timeout: {
    meaning: "The request (headers and body) did not arrive whole within the server's time limit (20 s by default); the connection is closed.",
    action: 'Send the request whole; check the network path; retry.',
    anyRequest: true,
  },
  conflict: {
    meaning: "The resource's state does not allow the change (`detail` says why).",
    action: 'Read the resource again and change what `detail` names.',
  },
  concurrent_modification: {
    meaning: 'The resource changed between reading and writing it.',
    action: 'Retry the request.',
  },
  vault_entry_in_use: {
    meaning: 'Active integrations use the vault entry, so it was not deleted (`integrations` lists their ids, `detail` names them).',
    action: 'Pause or delete those integrations first, or replace the entry instead (`PATCH /organization-vault`).',
  },
  external_id_taken: {
    meaning: 'Another device of the organization carries this radio id (`errors` names the field and `detail` the device).',
    action: 'Remove the id from that device first (`PATCH /devices/{id}` with the id `null`), or check the id on the meter.',
  },
  payload_too_large: { meaning: 'The body is over the 64 KiB limit.', action: 'Send less (a dashboard takes up to 100 devices).' },
  uri_too_long: { meaning: 'A segment of the path is longer than any id.', action: 'Check the id in the path.', anyRequest: true },
  unsupported_media_type: {
    meaning: 'The body is not JSON.',
    action: 'Send the body as JSON with `Content-Type: application/json`.',
  },
  expectation_failed: {
    meaning: 'The request has an `Expect` header other than `100-continue`.',
    action: 'Leave the header out, or send `Expect: 100-continue`.',
    anyRequest: true,
  },
  destination_check_failed: {
    meaning: "The check object could not be written to the export destination (`detail` gives the storage service's answer).",
    action: "Fix what `detail` names: the bucket or container, the identity's permissions (the vault entry), the endpoint.",
  },
  idempotency_key_reused: {
    meaning: 'The `Idempotency-Key` was used before with another body.',
    action: 'Send a new key for a new request; repeat a request with its own key and the same body.',
  },
  idempotency_key_in_progress: {
    meaning: 'The first request with this `Idempotency-Key` was still running after 10 seconds.',
    action: 'Repeat the same request after `Retry-After` seconds: it then gets the first answer.',
  },
  rate_limited: {
    meaning: 'Too many requests: the credential used its budget, or too many refused requests came from your address (`RateLimit-Policy` says which).',
    action: 'Wait the `Retry-After` seconds (`retry_after` says the same), then sign the request again.',
  },
  request_header_fields_too_large: {
    meaning: 'The request headers are over 16 KiB.',
    action: 'Send smaller headers.',
    anyRequest: true,
  },

  // The platform
  internal_error: { meaning: 'The platform failed to answer.', action: REPORT, anyRequest: true },
  vault_bad_reply: { meaning: 'The vault service gave an answer the management API could not read.', action: REPORT },
  integrations_bad_reply: { meaning: 'The integrations service gave an answer the management API could not read.', action: REPORT },
  database_unavailable: { meaning: 'The database is unavailable for a moment (a restart or failover).', action: RETRY_LATER },
  vault_unavailable: { meaning: 'The vault service did not answer in time.', action: RETRY_LATER },
  integrations_unavailable: { meaning: 'The integrations service did not answer in time.', action: RETRY_LATER },
  bus_unavailable: { meaning: 'The message bus (NATS JetStream) did not store the change in time.', action: RETRY_LATER },
  throttle_unavailable: { meaning: 'Logins cannot be counted against their limits for a moment (Redis is unavailable).', action: RETRY_LATER },
  credential_state_unavailable: {
    meaning: 'The credential changed moments ago and the gateway could not fetch its new state yet; nothing was counted.',
    action: RETRY_LATER,
  },
  credential_sync_unavailable: {
    meaning: 'The change is saved and reaches the gateways within about a second, but could not be confirmed on every gateway.',
    action: 'Retry the same change after the `Retry-After` seconds to have it confirmed.',
  },
  not_ready: {
    meaning: 'The process cannot serve yet (a probe answer: `failed` names what it waits for).',
    action: 'Operators: see `checks`; the orchestrator retries.',
  },
};
