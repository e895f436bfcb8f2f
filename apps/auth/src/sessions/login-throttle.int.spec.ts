import type Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppConfig } from '@meter/config';
import { ProblemException } from '@meter/http';
import { createRedis } from '@meter/redis';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { LoginThrottle } from './login-throttle';

/** The login throttle's rules on the real Redis (docs/management-api.md, "Login throttling"). */
describe('LoginThrottle', () => {
  let infra: IsolatedInfra;
  let redis: Redis;
  let throttle: LoginThrottle;
  let n = 0;
  const email = () => `admin${++n}@example.test`;

  /** What takeAttempt answered: admitted, or the Retry-After of its 429. */
  const attempt = async (who: string, address: string): Promise<'admitted' | number> => {
    try {
      await throttle.takeAttempt(who, address);
      return 'admitted';
    } catch (error) {
      if (!(error instanceof ProblemException) || error.getStatus() !== 429) throw error;
      return Number(error.headers['Retry-After']);
    }
  };
  const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000 + 50));

  beforeAll(async () => {
    infra = await isolatedInfra({ migrate: false });
    redis = createRedis(infra.redisUrl, { connectionName: 'login-throttle-test', keyPrefix: infra.redisKeyPrefix });
    await new Promise((resolve) => redis.once('ready', resolve));
    const config = {
      LOGIN_MAX_FAILURES_PER_EMAIL_AND_ADDRESS: 3,
      LOGIN_MAX_FAILURES_PER_ADDRESS: 1000,
      LOGIN_MAX_FAILURES_PER_EMAIL: 4,
      LOGIN_MAX_DELAY_SECONDS: 2,
      LOGIN_THROTTLE_WINDOW_SECONDS: 60,
    } as AppConfig;
    throttle = new LoginThrottle(redis, config);
  });
  afterAll(async () => {
    redis?.disconnect();
    await infra?.cleanup();
  });

  it('blocks one address after its failures for an email, not another address', async () => {
    const victim = email();
    for (let i = 0; i < 3; i++) expect(await attempt(victim, '198.51.100.1')).toBe('admitted');
    const blocked = await attempt(victim, '198.51.100.1');
    expect(blocked).toBeGreaterThanOrEqual(1);
    expect(blocked).toBeLessThanOrEqual(60);
    expect(await attempt(victim, '198.51.100.2')).toBe('admitted');
    // The same address may still try other emails.
    expect(await attempt(email(), '198.51.100.1')).toBe('admitted');
  });

  it('delays, rather than blocks, an email guessed at from many addresses: slots 1 s, then 2 s apart', async () => {
    const victim = email();
    for (let i = 0; i < 4; i++) expect(await attempt(victim, `203.0.113.${i}`)).toBe('admitted');
    expect(await attempt(victim, '203.0.113.50')).toBe(1);
    await sleep(1);
    expect(await attempt(victim, '203.0.113.50')).toBe('admitted');
    expect(await attempt(victim, '203.0.113.51')).toBe(2);
    await sleep(2);
    expect(await attempt(victim, '203.0.113.51')).toBe('admitted');
    // The delay stops doubling at LOGIN_MAX_DELAY_SECONDS.
    expect(await attempt(victim, '203.0.113.52')).toBe(2);
  });

  it('admits one attempt per slot however many arrive at once', async () => {
    const victim = email();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => attempt(victim, `192.0.2.${i}`)));
    expect(answers.filter((a) => a === 'admitted')).toHaveLength(4);
  });

  it('does not delay an address where the admin logged in before, and a success clears that address', async () => {
    const victim = email();
    await throttle.takeAttempt(victim, '198.51.100.77');
    await throttle.recordSuccess(victim, '198.51.100.77');
    for (let i = 0; i < 4; i++) await attempt(victim, `100.64.0.${i}`);
    expect(await attempt(victim, '100.64.0.99')).toBeGreaterThanOrEqual(1);
    expect(await attempt(victim, '198.51.100.77')).toBe('admitted');
    expect(await attempt(victim, '198.51.100.77')).toBe('admitted');
    await throttle.recordSuccess(victim, '198.51.100.77');
    for (let i = 0; i < 3; i++) expect(await attempt(victim, '198.51.100.77')).toBe('admitted');
    expect(await attempt(victim, '198.51.100.77')).toBeGreaterThanOrEqual(1);
  });
});
