import type { RateLimitDecision, RateLimiter } from './rate-limit-decision';

/**
 * The same sliding-window log, in this process only: the stand-in while
 * Redis is away. With N gateway processes a credential may get up to N
 * times its limit, so it is approximate by design (docs/gateway-security.md).
 * Keys nobody used for a window are dropped so memory stays bounded.
 */
/** One key's admissions, oldest first; entries before `head` have left the window. */
interface Log {
  times: number[];
  head: number;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly logs = new Map<string, Log>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  consume(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    return Promise.resolve(this.consumeNow(key, limit, windowMs));
  }

  /** Constant time per call whatever the limit: expired admissions leave from the front. */
  consumeNow(key: string, limit: number, windowMs: number): RateLimitDecision {
    const log = this.logs.get(key) ?? { times: [], head: 0 };
    // Never older than the last admission, so the log stays ordered if the wall clock steps back.
    const now = Math.max(this.now(), log.times.length ? log.times[log.times.length - 1] : 0);
    this.sweep(now, windowMs);
    while (log.head < log.times.length && log.times[log.head] <= now - windowMs) log.head++;
    if (log.head > 1024 && log.head * 2 > log.times.length) {
      log.times = log.times.slice(log.head);
      log.head = 0;
    }
    const count = log.times.length - log.head;
    const allowed = count < limit;
    if (allowed) log.times.push(now);
    this.logs.set(key, log);
    const inWindow = log.times.length - log.head;
    const resetMs = inWindow ? Math.max(1, log.times[log.head] + windowMs - now) : 0;
    return { allowed, limit, windowSeconds: windowMs / 1000, remaining: limit - inWindow, resetMs };
  }

  private sweep(now: number, windowMs: number) {
    if (now - this.lastSweep < windowMs) return;
    this.lastSweep = now;
    for (const [key, log] of this.logs) {
      if (log.head >= log.times.length || log.times[log.times.length - 1] <= now - windowMs) this.logs.delete(key);
    }
  }
}
