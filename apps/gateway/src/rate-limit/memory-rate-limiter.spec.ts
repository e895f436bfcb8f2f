import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from './memory-rate-limiter';
import { retryAfterSeconds } from './rate-limit-decision';
import { rateLimitHeaders } from './rate-limit-headers';

describe('MemoryRateLimiter (sliding-window log)', () => {
  it('admits exactly the limit within a window, then tells when the oldest slot frees', () => {
    let now = 1_000_000;
    const limiter = new MemoryRateLimiter(() => now);
    const admitted = [];
    for (let i = 0; i < 5; i++) {
      admitted.push(limiter.consumeNow('k', 3, 60_000).allowed);
      now += 1000;
    }
    expect(admitted).toEqual([true, true, true, false, false]);
    const denied = limiter.consumeNow('k', 3, 60_000);
    // First admission at 1_000_000, now 1_005_000: 55 s until it leaves the window.
    expect(denied).toMatchObject({ allowed: false, remaining: 0, resetMs: 55_000 });
    expect(retryAfterSeconds(denied)).toBe(55);
  });

  it('slides: a slot frees when the oldest admission is a full window old', () => {
    let now = 0;
    const limiter = new MemoryRateLimiter(() => now);
    limiter.consumeNow('k', 2, 60_000);
    now = 30_000;
    limiter.consumeNow('k', 2, 60_000);
    now = 59_999;
    expect(limiter.consumeNow('k', 2, 60_000).allowed).toBe(false);
    now = 60_000;
    expect(limiter.consumeNow('k', 2, 60_000)).toMatchObject({ allowed: true, remaining: 0, resetMs: 30_000 });
  });

  it('answers as the plain sliding log does, over thousands of admissions (compaction included)', () => {
    // The reference: keep every admission, count those inside the window.
    const reference = (log: number[], now: number, limit: number, windowMs: number) => {
      const inside = log.filter((at) => at > now - windowMs);
      const allowed = inside.length < limit;
      if (allowed) inside.push(now);
      return { log: inside, decision: { allowed, remaining: limit - inside.length, resetMs: inside.length ? Math.max(1, inside[0] + windowMs - now) : 0 } };
    };
    let now = 5_000;
    const limiter = new MemoryRateLimiter(() => now);
    let log: number[] = [];
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 20_000; i++) {
      now += Math.floor(random() * 12); // bursts and pauses around a 2,500-per-window limit
      const expected = reference(log, now, 2500, 10_000);
      log = expected.log;
      expect(limiter.consumeNow('k', 2500, 10_000)).toMatchObject(expected.decision);
    }
  });

  it('keeps keys apart', () => {
    const limiter = new MemoryRateLimiter(() => 0);
    expect(limiter.consumeNow('a', 1, 60_000).allowed).toBe(true);
    expect(limiter.consumeNow('b', 1, 60_000).allowed).toBe(true);
    expect(limiter.consumeNow('a', 1, 60_000).allowed).toBe(false);
  });
});

describe('retryAfterSeconds and headers', () => {
  it('rounds up to whole seconds, at least 1', () => {
    const base = { allowed: false, limit: 60, windowSeconds: 60, remaining: 0 };
    expect(retryAfterSeconds({ ...base, resetMs: 1 })).toBe(1);
    expect(retryAfterSeconds({ ...base, resetMs: 0 })).toBe(1);
    expect(retryAfterSeconds({ ...base, resetMs: 59_001 })).toBe(60);
  });

  it('renders the draft-09 structured fields', () => {
    expect(rateLimitHeaders('default', { allowed: true, limit: 60, windowSeconds: 60, remaining: 42, resetMs: 17_400 })).toEqual({
      'ratelimit-policy': '"default";q=60;w=60',
      ratelimit: '"default";r=42;t=18',
    });
  });
});
