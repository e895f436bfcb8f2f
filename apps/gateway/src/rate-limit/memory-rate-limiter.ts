import type { RateLimitDecision, RateLimiter } from './rate-limit-decision';

/**
 * The same sliding-window log, in this process only: the stand-in while
 * Redis is away. With N gateway processes a credential may get up to N
 * times its limit, so it is approximate by design (docs/gateway-security.md).
 * Keys nobody used for a window are dropped so memory stays bounded.
 */
export class MemoryRateLimiter implements RateLimiter {
  private readonly logs = new Map<string, number[]>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  consume(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    return Promise.resolve(this.consumeNow(key, limit, windowMs));
  }

  consumeNow(key: string, limit: number, windowMs: number): RateLimitDecision {
    const now = this.now();
    this.sweep(now, windowMs);
    const log = (this.logs.get(key) ?? []).filter((at) => at > now - windowMs);
    const allowed = log.length < limit;
    if (allowed) log.push(now);
    this.logs.set(key, log);
    const resetMs = log.length ? Math.max(1, log[0] + windowMs - now) : 0;
    return { allowed, limit, windowSeconds: windowMs / 1000, remaining: limit - log.length, resetMs };
  }

  private sweep(now: number, windowMs: number) {
    if (now - this.lastSweep < windowMs) return;
    this.lastSweep = now;
    for (const [key, log] of this.logs) {
      if (!log.length || log[log.length - 1] <= now - windowMs) this.logs.delete(key);
    }
  }
}
