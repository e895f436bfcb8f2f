import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import type { RateLimitDecision, RateLimiter } from './rate-limit-decision';
import { SLIDING_WINDOW_SCRIPT } from './sliding-window.script';

type WithSlidingWindow = Redis & {
  meterSlidingWindow(key: string, limit: number, windowMs: number, member: string): Promise<[number, number, number]>;
};

/**
 * The shared limiter. `defineCommand` sends EVALSHA and loads the script
 * (EVAL) only when Redis answers NOSCRIPT, i.e. once per server start.
 * Keys go through the client's keyPrefix like every other key.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: WithSlidingWindow;
  private readonly instance = randomBytes(6).toString('hex');
  private sequence = 0;

  constructor(redis: Redis) {
    if (!('meterSlidingWindow' in redis)) {
      redis.defineCommand('meterSlidingWindow', { numberOfKeys: 1, lua: SLIDING_WINDOW_SCRIPT });
    }
    this.redis = redis as unknown as WithSlidingWindow;
  }

  async consume(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    // Unique per admission across processes, so two in the same millisecond are two entries.
    const member = `${this.instance}:${(this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER)}`;
    const [allowed, remaining, resetMs] = await this.redis.meterSlidingWindow(key, limit, windowMs, member);
    return { allowed: allowed === 1, limit, windowSeconds: windowMs / 1000, remaining: Math.max(0, remaining), resetMs };
  }
}
