import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import type { RateLimitDecision, RateLimiter } from './rate-limit-decision';
import { SLIDING_WINDOW_SCRIPT } from './sliding-window.script';
import { batchDecision } from './window-batch';

type WithSlidingWindow = Redis & {
  meterSlidingWindow(key: string, limit: number, windowMs: number, n: number, member: string): Promise<[number, number, number]>;
};

interface Waiting {
  resolve: (decision: RateLimitDecision) => void;
  reject: (error: unknown) => void;
}

interface Batch {
  key: string;
  limit: number;
  windowMs: number;
  waiting: Waiting[];
}

/**
 * The shared limiter. The requests of one key that arrive in the same
 * event-loop turn are decided by one script call (`setImmediate` sends them
 * once the turn has read every ready socket): at saturation one Redis round
 * trip serves many requests, and a lone request waits for nothing but the
 * end of its turn. `defineCommand` sends EVALSHA and loads the script (EVAL)
 * only when Redis answers NOSCRIPT, i.e. once per server start. Keys go
 * through the client's keyPrefix like every other key.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: WithSlidingWindow;
  private readonly instance = randomBytes(6).toString('hex');
  private sequence = 0;
  private pending = new Map<string, Batch>();
  private flushScheduled = false;

  constructor(redis: Redis) {
    if (!('meterSlidingWindow' in redis)) {
      redis.defineCommand('meterSlidingWindow', { numberOfKeys: 1, lua: SLIDING_WINDOW_SCRIPT });
    }
    this.redis = redis as unknown as WithSlidingWindow;
  }

  consume(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    return new Promise((resolve, reject) => {
      const id = `${limit}\u0000${windowMs}\u0000${key}`;
      let batch = this.pending.get(id);
      if (!batch) this.pending.set(id, (batch = { key, limit, windowMs, waiting: [] }));
      batch.waiting.push({ resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(this.flush);
      }
    });
  }

  private readonly flush = () => {
    this.flushScheduled = false;
    const batches = this.pending;
    this.pending = new Map();
    for (const batch of batches.values()) void this.decide(batch);
  };

  private async decide({ key, limit, windowMs, waiting }: Batch) {
    // Unique per call across processes; the script numbers the batch's admissions after it.
    const member = `${this.instance}:${(this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER)}`;
    try {
      const [admitted, before, resetMs] = await this.redis.meterSlidingWindow(key, limit, windowMs, waiting.length, member);
      const result = { admitted, before, resetMs };
      for (let i = 0; i < waiting.length; i++) waiting[i].resolve(batchDecision(i, result, limit, windowMs));
    } catch (error) {
      for (const w of waiting) w.reject(error);
    }
  }
}
