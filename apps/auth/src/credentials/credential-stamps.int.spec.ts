import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type Redis from 'ioredis';
import { CREDENTIAL_STAMP_TTL_SECONDS, credentialStampKey } from '@meter/contracts';
import { ProblemException } from '@meter/http';
import { createRedis } from '@meter/redis';
import { CredentialStamps } from './credential-stamps';

describe('CredentialStamps', () => {
  const prefix = `stampauth${randomBytes(4).toString('hex')}:`;
  let redis: Redis;
  let stamps: CredentialStamps;
  const read = (id: string) => redis.hgetall(credentialStampKey(id));

  beforeAll(async () => {
    redis = createRedis(inject('infra').redisUrl, { connectionName: 'stamp-auth-int', keyPrefix: prefix });
    await new Promise((resolve) => (redis.status === 'ready' ? resolve(undefined) : redis.once('ready', resolve)));
    stamps = new CredentialStamps(redis);
  });

  afterAll(async () => {
    const plain = createRedis(inject('infra').redisUrl, { connectionName: 'stamp-auth-cleanup' });
    await new Promise((resolve) => plain.once('ready', resolve));
    const keys = await plain.keys(`${prefix}*`);
    if (keys.length) await plain.del(...keys);
    [plain, redis].forEach((c) => c.disconnect());
  });

  it('only ever raises the version, keeps a revocation, and expires', async () => {
    await stamps.raise('cred_a', 2, false);
    expect(await read('cred_a')).toEqual({ v: '2', r: '0' });
    await stamps.raise('cred_a', 4, false);
    await stamps.raise('cred_a', 3, false); // a slower writer of an older change
    expect(await read('cred_a')).toEqual({ v: '4', r: '0' });
    await stamps.raise('cred_a', 5, true);
    await stamps.raise('cred_a', 6, false);
    expect(await read('cred_a')).toEqual({ v: '6', r: '1' });
    const ttl = await redis.ttl(credentialStampKey('cred_a'));
    expect(ttl).toBeGreaterThan(CREDENTIAL_STAMP_TTL_SECONDS - 60);
    expect(ttl).toBeLessThanOrEqual(CREDENTIAL_STAMP_TTL_SECONDS);
  });

  it('answers 503 credential_sync_unavailable with Retry-After when Redis cannot take the stamp', async () => {
    const offline = createRedis('redis://127.0.0.1:1', { connectionName: 'stamp-offline' });
    try {
      const error = await new CredentialStamps(offline).raise('cred_b', 2, true).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProblemException);
      expect((error as ProblemException).toProblem()).toMatchObject({ status: 503, code: 'credential_sync_unavailable' });
      expect((error as ProblemException).headers).toEqual({ 'retry-after': '2' });
    } finally {
      offline.disconnect();
    }
  });
});
