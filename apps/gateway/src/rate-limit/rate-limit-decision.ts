/** The answer of a limiter for one request. */
export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  windowSeconds: number;
  /** Requests left in the window after this one. */
  remaining: number;
  /** Milliseconds until the oldest counted request leaves the window (a slot frees); 0 when the window is empty. */
  resetMs: number;
}

export interface RateLimiter {
  /** Counts one request under `key` if the window has room. */
  consume(key: string, limit: number, windowMs: number): Promise<RateLimitDecision>;
}

/** Whole seconds, at least 1, for `Retry-After` (contract 7). */
export function retryAfterSeconds(decision: RateLimitDecision): number {
  return Math.max(1, Math.ceil(decision.resetMs / 1000));
}
