/**
 * Credential stamps: a Redis hash per credential that auth raises after it
 * committed a revocation or an allow-list change and before it answers, with
 * fields `v` (the credential's version after the change) and `r` (`1` once
 * revoked). Every gateway reads it inside the rate-limit script it already
 * runs once per request, so a request is checked against the newest version
 * at no extra round trip, on every replica, from the moment the change is
 * answered (docs/gateway-security.md, "Changes take effect before the answer").
 *
 * The hash tag is the rate-limit key's (`rl:{cred:<id>}`), so the script's two
 * keys share a Redis Cluster slot.
 */
export function credentialStampKey(credentialId: string): string {
  return `cs:{cred:${credentialId}}`;
}

/**
 * A stamp outlives the change by far: by then every gateway holds the event
 * (AUTH_EVENTS, milliseconds) and no longer needs it.
 */
export const CREDENTIAL_STAMP_TTL_SECONDS = 24 * 3600;
