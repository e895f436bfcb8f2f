import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type Redis from 'ioredis';
import { createRedis } from '@meter/redis';
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
});
