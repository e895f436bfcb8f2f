/** The answer of a limiter for one request. */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  windowSeconds: number;
  /** Requests left in the window after this one. */
  remaining: number;
  /** Milliseconds until the oldest counted request leaves the window (a slot frees); 0 when the window is empty. */
  resetMs: number;
  /**
   * Set when the credential's stamp is newer than the version the request was
   * checked against: nothing was counted, and the request must be checked
   * again against the new state (or refused, when it is a revocation).
   */
  credentialChanged?: { version: number; revoked: boolean };
}

/** The credential stamp (`credentialStampKey`) to compare, and the version of the view that checked the request. */
export interface StampCheck {
  key: string;
  version: number;
}

export interface RateLimiter {
  /** Counts one request under `key` if the window has room (and, with `stamp`, the credential did not change). */
  consume(key: string, limit: number, windowMs: number, stamp?: StampCheck): Promise<RateLimitDecision>;
}

/** Whole seconds, at least 1, for `Retry-After` (docs/gateway-security.md). */
export function retryAfterSeconds(decision: RateLimitDecision): number {
  return Math.max(1, Math.ceil(decision.resetMs / 1000));
}
