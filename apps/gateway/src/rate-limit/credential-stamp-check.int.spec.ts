import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type Redis from 'ioredis';
import { credentialStampKey } from '@meter/contracts';
import { createRedis } from '@meter/redis';
import { credentialLimitKey } from './limit-keys';
import { RedisRateLimiter } from './redis-rate-limiter';

/** The rate-limit script's comparison of a credential's stamp, on the real Redis. */
describe('the credential stamp inside the rate-limit script', () => {
  const prefix = `stampint${randomBytes(4).toString('hex')}:`;
  let redis: Redis;
  let limiter: RedisRateLimiter;
  const stamp = (id: string, version: number) => ({ key: credentialStampKey(id), version });

  beforeAll(async () => {
    redis = createRedis(inject('infra').redisUrl, { connectionName: 'stamp-int', keyPrefix: prefix });
    await new Promise((resolve) => (redis.status === 'ready' ? resolve(undefined) : redis.once('ready', resolve)));
    limiter = new RedisRateLimiter(redis);
  });

  afterAll(async () => {
    const plain = createRedis(inject('infra').redisUrl, { connectionName: 'stamp-int-cleanup' });
    await new Promise((resolve) => plain.once('ready', resolve));
    const keys = await plain.keys(`${prefix}*`);
    if (keys.length) await plain.del(...keys);
    [plain, redis].forEach((c) => c.disconnect());
  });

  it('admits as before while the stamp is absent or not newer than the checked version', async () => {
    expect(await limiter.consume(credentialLimitKey('a'), 5, 60_000, stamp('a', 1))).toMatchObject({ allowed: true, remaining: 4 });
    await redis.hset(credentialStampKey('a'), 'v', 2, 'r', 0);
    expect(await limiter.consume(credentialLimitKey('a'), 5, 60_000, stamp('a', 2))).toMatchObject({ allowed: true, remaining: 3 });
    expect(await limiter.consume(credentialLimitKey('a'), 5, 60_000, stamp('a', 3))).toMatchObject({ allowed: true, remaining: 2 });
  });

  it('refuses without counting when the stamp is newer, saying whether it is a revocation', async () => {
    await redis.hset(credentialStampKey('b'), 'v', 3, 'r', 0);
    const changed = await limiter.consume(credentialLimitKey('b'), 5, 60_000, stamp('b', 2));
    expect(changed).toMatchObject({ allowed: false, credentialChanged: { version: 3, revoked: false } });
    await redis.hset(credentialStampKey('b'), 'v', 4, 'r', 1);
    const revoked = await Promise.all([1, 2, 3].map(() => limiter.consume(credentialLimitKey('b'), 5, 60_000, stamp('b', 3))));
    expect(revoked.map((d) => d.credentialChanged)).toEqual([1, 2, 3].map(() => ({ version: 4, revoked: true })));
    expect(await redis.exists(credentialLimitKey('b'))).toBe(0);
  });

  it('checks a batch against the oldest version any of its requests saw', async () => {
    await redis.hset(credentialStampKey('c'), 'v', 5, 'r', 0);
    const [older, newer] = await Promise.all([
      limiter.consume(credentialLimitKey('c'), 5, 60_000, stamp('c', 4)),
      limiter.consume(credentialLimitKey('c'), 5, 60_000, stamp('c', 5)),
    ]);
    expect([older.credentialChanged, newer.credentialChanged]).toEqual([
      { version: 5, revoked: false },
      { version: 5, revoked: false },
    ]);
  });

  it('leaves budgets without a stamp (source addresses) alone', async () => {
    expect(await limiter.consume('rl:{ip:192.0.2.7}', 2, 60_000)).toMatchObject({ allowed: true, remaining: 1 });
  });
});
