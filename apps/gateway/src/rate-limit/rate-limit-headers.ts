import type { RateLimitDecision } from './rate-limit-decision';

/**
 * Headers of draft-ietf-httpapi-ratelimit-headers-09 (structured-field
 * lists, one named policy): `RateLimit-Policy: "default";q=60;w=60` and
 * `RateLimit: "default";r=59;t=60`. `t` is the whole seconds until the
 * oldest counted request leaves the sliding window, i.e. until `r` grows.
 */
export function rateLimitHeaders(policy: string, decision: RateLimitDecision): Record<string, string> {
  return {
    'ratelimit-policy': `"${policy}";q=${decision.limit};w=${decision.windowSeconds}`,
    ratelimit: `"${policy}";r=${decision.remaining};t=${Math.ceil(decision.resetMs / 1000)}`,
  };
}
