import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import type { RateLimitDecision, RateLimiter, StampCheck } from './rate-limit-decision';
import { SLIDING_WINDOW_SCRIPT } from './sliding-window.script';
import { batchDecision } from './window-batch';

type WithSlidingWindow = Redis & {
  meterSlidingWindow(
    key: string,
    stampKey: string,
    limit: number,
    windowMs: number,
    n: number,
    member: string,
    version: string,
  ): Promise<[number, number, number]>;
};

interface Waiting {
  resolve: (decision: RateLimitDecision) => void;
  reject: (error: unknown) => void;
  /** The credential version this request was checked against, when its stamp is to be compared. */
  version?: number;
}

/** The requests of one key (and limit) waiting for a script call, and whether one is out. */
interface KeyQueue {
  id: string;
  key: string;
  limit: number;
  windowMs: number;
  /** The credential stamp of the key, if any (the same for every request of the key). */
  stampKey?: string;
  waiting: Waiting[];
  inFlight: boolean;
  scheduled: boolean;
}

/**
 * The shared limiter. Each key has at most one script call out at a time:
 * the requests that arrive meanwhile wait for it and are decided together by
 * the next call, sent as soon as the answer is in; a key with nothing out
 * sends at the end of the event-loop turn (`setImmediate`, once the turn has
 * read every ready socket). So a lone request waits for nothing but the end
 * of its turn, and under load one round trip serves every request of a key
 * that arrived during the previous one. Calls of one key never overlap, so
 * their order is the order of arrival. `defineCommand` sends EVALSHA and
 * loads the script (EVAL) only when Redis answers NOSCRIPT, i.e. once per
 * server start. Keys go through the client's keyPrefix like every other key.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: WithSlidingWindow;
  private readonly instance = randomBytes(6).toString('hex');
  private sequence = 0;
  /** Keys with requests waiting or a call out; a key leaves when both are done. */
  private readonly queues = new Map<string, KeyQueue>();
  private due: KeyQueue[] = [];

  constructor(redis: Redis) {
    if (!('meterSlidingWindow' in redis)) {
      redis.defineCommand('meterSlidingWindow', { numberOfKeys: 2, lua: SLIDING_WINDOW_SCRIPT });
    }
    this.redis = redis as unknown as WithSlidingWindow;
  }

  consume(key: string, limit: number, windowMs: number, stamp?: StampCheck): Promise<RateLimitDecision> {
    return new Promise((resolve, reject) => {
      const id = `${limit}\u0000${windowMs}\u0000${key}`;
      let queue = this.queues.get(id);
      if (!queue) this.queues.set(id, (queue = { id, key, limit, windowMs, waiting: [], inFlight: false, scheduled: false }));
      if (stamp) queue.stampKey = stamp.key;
      queue.waiting.push({ resolve, reject, version: stamp?.version });
      // With a call out, the answer sends this request's call.
      if (!queue.inFlight) this.schedule(queue);
    });
  }

  private schedule(queue: KeyQueue) {
    if (queue.scheduled) return;
    queue.scheduled = true;
    if (this.due.push(queue) === 1) setImmediate(this.flush);
  }

  private readonly flush = () => {
    const due = this.due;
    this.due = [];
    for (const queue of due) {
      queue.scheduled = false;
      if (!queue.inFlight) void this.decide(queue);
    }
  };

  private async decide(queue: KeyQueue) {
    const { key, limit, windowMs, waiting } = queue;
    queue.waiting = [];
    queue.inFlight = true;
    // Unique per call across processes; the script numbers the batch's admissions after it.
    const member = `${this.instance}:${(this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER)}`;
    // The batch is checked against the oldest version any of its requests was checked with.
    const versions = waiting.flatMap((w) => (w.version === undefined ? [] : [w.version]));
    const version = queue.stampKey && versions.length > 0 ? String(Math.min(...versions)) : '';
    try {
      const [admitted, before, resetMs] = await this.redis.meterSlidingWindow(
        key,
        version ? queue.stampKey! : key,
        limit,
        windowMs,
        waiting.length,
        member,
        version,
      );
      if (admitted < 0) {
        const credentialChanged = { version: before, revoked: resetMs === 1 };
        for (const w of waiting) w.resolve({ allowed: false, limit, windowSeconds: windowMs / 1000, remaining: 0, resetMs: 0, credentialChanged });
        return;
      }
      const result = { admitted, before, resetMs };
      for (let i = 0; i < waiting.length; i++) waiting[i].resolve(batchDecision(i, result, limit, windowMs));
    } catch (error) {
      for (const w of waiting) w.reject(error);
    } finally {
      queue.inFlight = false;
      if (queue.waiting.length > 0) this.schedule(queue);
      else this.queues.delete(queue.id);
    }
  }
}
