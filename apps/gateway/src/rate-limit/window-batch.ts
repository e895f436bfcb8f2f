import type { RateLimitDecision } from './rate-limit-decision';

/** What the sliding-window script answered for one batch of one key. */
interface WindowBatchResult {
  admitted: number;
  /** Admissions in the window before the batch. */
  before: number;
  resetMs: number;
}

/**
 * The decision for the `index`-th request (from 0) of a batch: the first
 * `admitted` are allowed, each seeing the window after its own admission;
 * the rest are refused with the window as the batch left it. The same
 * answers as one script call per request at the same instant.
 */
export function batchDecision(index: number, result: WindowBatchResult, limit: number, windowMs: number): RateLimitDecision {
  const allowed = index < result.admitted;
  const counted = result.before + (allowed ? index + 1 : result.admitted);
  return { allowed, limit, windowSeconds: windowMs / 1000, remaining: Math.max(0, limit - counted), resetMs: result.resetMs };
}
