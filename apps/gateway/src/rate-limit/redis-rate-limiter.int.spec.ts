import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type Redis from 'ioredis';
import { createRedis } from '@meter/redis';
import type { RateLimitDecision } from './rate-limit-decision';
import { RedisRateLimiter } from './redis-rate-limiter';

/** The sliding-window script against the real Redis: exact under concurrency from separate clients. */
describe('RedisRateLimiter', () => {
  const prefix = `rlint${randomBytes(4).toString('hex')}:`;
  let clients: Redis[];

  beforeAll(async () => {
    const url = inject('infra').redisUrl;
    clients = [0, 1].map((i) => createRedis(url, { connectionName: `rl-int-${i}`, keyPrefix: prefix }));
    await Promise.all(clients.map((c) => new Promise((resolve) => (c.status === 'ready' ? resolve(undefined) : c.once('ready', resolve)))));
  });

  afterAll(async () => {
    // An unprefixed client: a prefixed one would prefix the pattern and the names again.
    const plain = createRedis(inject('infra').redisUrl, { connectionName: 'rl-int-cleanup' });
    await new Promise((resolve) => plain.once('ready', resolve));
    const keys = await plain.keys(`${prefix}*`);
    if (keys.length) await plain.del(...keys);
    [plain, ...clients].forEach((c) => c.disconnect());
  });

  it('admits exactly the limit among concurrent calls from two clients, and says when a slot frees', async () => {
    const limiters = clients.map((c) => new RedisRateLimiter(c));
    const decisions = await Promise.all(Array.from({ length: 100 }, (_, i) => limiters[i % 2].consume('rl:{cred:a}', 25, 60_000)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(25);
    expect(
      decisions
        .filter((d) => d.allowed)
        .map((d) => d.remaining)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: 25 }, (_, i) => i));
    for (const d of decisions.filter((x) => !x.allowed)) {
      expect(d.remaining).toBe(0);
      expect(d.resetMs).toBeGreaterThan(55_000);
      expect(d.resetMs).toBeLessThanOrEqual(60_000);
    }
    // Refused calls are not logged: the set holds the admissions only, and expires with the window.
    expect(await clients[0].zcard('rl:{cred:a}')).toBe(25);
    const ttl = await clients[0].pttl('rl:{cred:a}');
    expect(ttl).toBeGreaterThan(55_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('slides: admissions older than the window stop counting', async () => {
    const limiter = new RedisRateLimiter(clients[0]);
    expect((await limiter.consume('rl:{cred:b}', 2, 1000)).allowed).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect((await limiter.consume('rl:{cred:b}', 2, 1000)).allowed).toBe(true);
    const refused = await limiter.consume('rl:{cred:b}', 2, 1000);
    expect(refused.allowed).toBe(false);
    expect(refused.resetMs).toBeLessThanOrEqual(600);
    await new Promise((resolve) => setTimeout(resolve, refused.resetMs + 30));
    // The first admission left the window; the second, 400 ms younger, still counts.
    expect(await limiter.consume('rl:{cred:b}', 2, 1000)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('keeps keys apart and reports an empty window as reset 0 only before the first admission', async () => {
    const limiter = new RedisRateLimiter(clients[1]);
    const first = await limiter.consume('rl:{ip:192.0.2.1}', 3, 60_000);
    expect(first).toMatchObject({ allowed: true, remaining: 2, limit: 3, windowSeconds: 60 });
    expect(first.resetMs).toBeGreaterThan(59_000);
    expect((await limiter.consume('rl:{ip:192.0.2.2}', 3, 60_000)).remaining).toBe(2);
  });

  it("decides the requests of one event-loop turn with one script call per key, exactly, past the script's ZADD chunk of 500", async () => {
    const limiter = new RedisRateLimiter(clients[0]);
    const calls = vi.spyOn(clients[0] as unknown as { meterSlidingWindow: (...args: unknown[]) => Promise<unknown> }, 'meterSlidingWindow');
    try {
      const [many, other] = await Promise.all([
        Promise.all(Array.from({ length: 1_200 }, () => limiter.consume('rl:{cred:c}', 1_100, 60_000))),
        Promise.all(Array.from({ length: 5 }, () => limiter.consume('rl:{cred:d}', 3, 60_000))),
      ]);
      expect(calls).toHaveBeenCalledTimes(2);
      const allowed = many.filter((d) => d.allowed);
      expect(allowed).toHaveLength(1_100);
      expect(new Set(allowed.map((d) => d.remaining)).size).toBe(1_100);
      expect(Math.max(...allowed.map((d) => d.remaining))).toBe(1_099);
      expect(many.slice(1_100).every((d) => !d.allowed && d.remaining === 0 && d.resetMs > 55_000)).toBe(true);
      expect(await clients[0].zcard('rl:{cred:c}')).toBe(1_100);
      expect(other.map((d) => [d.allowed, d.remaining])).toEqual([
        [true, 2],
        [true, 1],
        [true, 0],
        [false, 0],
        [false, 0],
      ]);
      // The next turn is a new call that sees the window the batch left.
      expect(await limiter.consume('rl:{cred:d}', 3, 60_000)).toMatchObject({ allowed: false, remaining: 0 });
      expect(calls).toHaveBeenCalledTimes(3);
    } finally {
      calls.mockRestore();
    }
  });

  it("holds the requests that arrive while a key's call is out and decides them together by the next call, in order", async () => {
    const limiter = new RedisRateLimiter(clients[1]);
    const client = clients[1] as unknown as { meterSlidingWindow: (...args: unknown[]) => Promise<[number, number, number]> };
    const real = client.meterSlidingWindow.bind(client);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const batches: number[] = [];
    // The real script on the real Redis, its first call held until the test has queued more requests.
    const calls = vi.spyOn(client, 'meterSlidingWindow').mockImplementation(async (...args: unknown[]) => {
      batches.push(args[4] as number);
      if (batches.length === 1) await gate;
      return real(...args);
    });
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    try {
      const first = limiter.consume('rl:{cred:f}', 3, 60_000);
      await nextTurn();
      expect(batches).toEqual([1]);
      // Three requests in three later turns, while the first call is out: none sends a call of its own.
      const later: Promise<RateLimitDecision>[] = [];
      for (let i = 0; i < 3; i++) {
        later.push(limiter.consume('rl:{cred:f}', 3, 60_000));
        await nextTurn();
      }
      // Another key is not held by this one's call.
      expect(await limiter.consume('rl:{cred:g}', 3, 60_000)).toMatchObject({ allowed: true, remaining: 2 });
      expect(batches).toEqual([1, 1]);
      open();
      expect(await first).toMatchObject({ allowed: true, remaining: 2 });
      expect((await Promise.all(later)).map((d) => [d.allowed, d.remaining])).toEqual([
        [true, 1],
        [true, 0],
        [false, 0],
      ]);
      expect(batches).toEqual([1, 1, 3]);
      // Nothing out and nothing waiting: the next request is a call of its own again.
      expect(await limiter.consume('rl:{cred:f}', 3, 60_000)).toMatchObject({ allowed: false });
      expect(batches).toEqual([1, 1, 3, 1]);
    } finally {
      calls.mockRestore();
    }
  });

  /** Redis's own clock in ms, which the script reads. */
  async function redisNow(client: Redis): Promise<number> {
    const [seconds, micros] = await client.time();
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  }

  /** Writes `count` admissions at `score` straight into a window's set, as an earlier burst would have left them. */
  async function logAdmissions(client: Redis, key: string, score: number, count: number, tag: string) {
    for (let done = 0; done < count; done += 1_000) {
      const args: (string | number)[] = [];
      for (let i = done; i < Math.min(count, done + 1_000); i++) args.push(score, `${tag}:${i}`);
      await client.zadd(key, ...args);
    }
  }

  it('counts a burst that left the window without deleting it in one call, and clears it a bounded part per call', async () => {
    const limiter = new RedisRateLimiter(clients[0]);
    const key = 'rl:{cred:burst}';
    const now = await redisNow(clients[0]);
    await logAdmissions(clients[0], key, now - 90_000, 10_000, 'old');
    await logAdmissions(clients[0], key, now - 1_000, 3, 'live');

    const first = await limiter.consume(key, 5, 60_000);
    // Only the 3 live admissions count; the slot frees when the oldest live one leaves, about 59 s on.
    expect(first).toMatchObject({ allowed: true, remaining: 1 });
    expect(first.resetMs).toBeGreaterThan(57_000);
    expect(first.resetMs).toBeLessThanOrEqual(59_000);
    // 256 of the 10,000 stale ones went; the 3 live ones and the new admission stay.
    expect(await clients[0].zcard(key)).toBe(10_000 - 256 + 4);
    expect(await clients[0].zcount(key, now - 2_000, '+inf')).toBe(4);

    expect(await limiter.consume(key, 5, 60_000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await limiter.consume(key, 5, 60_000)).toMatchObject({ allowed: false, remaining: 0 });
    expect(await clients[0].zcard(key)).toBe(10_000 - 3 * 256 + 5);
  });

  it('drops a set whose every admission left the window whole', async () => {
    const limiter = new RedisRateLimiter(clients[1]);
    const key = 'rl:{cred:idle}';
    await logAdmissions(clients[1], key, (await redisNow(clients[1])) - 61_000, 5_000, 'old');
    const decision = await limiter.consume(key, 5, 60_000);
    expect(decision).toMatchObject({ allowed: true, remaining: 4 });
    expect(decision.resetMs).toBeGreaterThan(59_000);
    expect(await clients[1].zcard(key)).toBe(1);
  });

  it('fails every request of a batch when Redis refuses the call, so each can fall back', async () => {
    const limiter = new RedisRateLimiter(clients[1]);
    // A key holding another type: the script's first ZCOUNT fails with WRONGTYPE.
    await clients[1].set('rl:{cred:e}', 'not a sorted set');
    const outcomes = await Promise.allSettled(Array.from({ length: 3 }, () => limiter.consume('rl:{cred:e}', 10, 60_000)));
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
  });
});
