import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { credentialStampKey } from '@meter/contracts';
import { createRedis } from '@meter/redis';
import { signRequest } from '@meter/signing';
import { floorApp } from './floor-app';

/** The benchmark's floor does the gateway's required work, the credential stamp check included, on the real Redis. */
describe('the floor of bench:gateway', () => {
  const prefix = `floorint${randomBytes(4).toString('hex')}:`;
  const credential = { accessKey: 'sk_live_floor', secretKey: 'floor-secret', credentialId: 'floor', version: 1 };
  let redis: Redis;
  let app: ReturnType<typeof floorApp>;

  const send = () =>
    app.inject({
      method: 'GET',
      url: '/meter/v1/devices',
      headers: { ...signRequest({ accessKey: credential.accessKey, secretKey: credential.secretKey, method: 'GET', target: '/meter/v1/devices' }) },
    });

  beforeAll(async () => {
    redis = createRedis(inject('infra').redisUrl, { connectionName: 'floor-int', keyPrefix: prefix });
    await new Promise((resolve) => (redis.status === 'ready' ? resolve(undefined) : redis.once('ready', resolve)));
    app = floorApp({ redis, credential, limit: 5, body: '{"devices":[]}', contentType: 'application/json' });
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys.map((key) => key.slice(prefix.length)));
    redis.disconnect();
  });

  it('answers a signed request within the limit, with the rate-limit headers, and refuses an unsigned one', async () => {
    const answer = await send();
    expect(answer.statusCode).toBe(200);
    expect(answer.headers.ratelimit).toBe('"default";r=4;t=60');
    expect((await app.inject({ method: 'GET', url: '/meter/v1/devices' })).statusCode).toBe(401);
  });

  it("compares the credential's stamp in the same script call: a revocation answered by auth refuses the next request", async () => {
    await redis.hset(credentialStampKey(credential.credentialId), 'v', credential.version + 1, 'r', 1);
    const answer = await send();
    expect(answer.statusCode).toBe(401);
    expect(answer.headers.ratelimit).toBeUndefined();
  });
});
