import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import Redis from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort } from '@meter/testing';
import { rawRequest, signedRequest, startGateway, type AuthEvents, type GatewayUnderTest, type RawResponse, type TestCredential } from './gateway-support';

const passed = (r: RawResponse) => r.status === 404;

describe('exact limits across two gateway processes', () => {
  let stack: GatewayUnderTest;
  let credential: TestCredential;
  const gateways: Array<{ port: number }> = [];

  beforeAll(async () => {
    stack = await startGateway({ credentials: [{}] });
    [credential] = stack.credentials;
    gateways.push(stack, await stack.another());
  });

  afterAll(() => stack?.stop());

  it('admits exactly 60 of 300 concurrent signed requests, the rest 429 with a correct Retry-After', async () => {
    const started = Date.now();
    const responses = await Promise.all(
      Array.from({ length: 300 }, (_, i) => signedRequest(gateways[i % 2].port, credential, { target: `/meter/v1/burst?i=${i}` })),
    );
    const elapsedSeconds = Math.ceil((Date.now() - started) / 1000);

    const limited = responses.filter((r) => r.status === 429);
    // Counted apart, two processes would admit up to 120; which process admits which share is up to
    // scheduling (under load one may take every slot), so only the total is asserted.
    expect({
      admitted: responses.filter(passed).length,
      limited: limited.length,
      other: responses.filter((r) => !passed(r) && r.status !== 429).map((r) => `${r.status} ${r.text.slice(0, 120)}`),
    }).toEqual({ admitted: 60, limited: 240, other: [] });
    for (const r of limited) {
      expect(r.json().code).toBe('rate_limited');
      const retryAfter = Number(r.headers['retry-after']);
      // The first admission is at most `elapsed` old, so its slot frees in (60 - elapsed, 60] seconds.
      expect(retryAfter).toBeGreaterThanOrEqual(60 - elapsedSeconds - 1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(r.headers['ratelimit']).toBe(`"default";r=0;t=${retryAfter}`);
    }
    const remaining = responses.filter(passed).map((r) => Number(/r=(\d+)/.exec(String(r.headers['ratelimit']))?.[1]));
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i));
  });
});

const redisServer = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
const haveRedisServer = redisServer.status === 0;
if (!haveRedisServer) console.warn('skipping the Redis outage test: no redis-server binary on PATH');

describe.skipIf(!haveRedisServer)('Redis killed mid-run (a redis-server of this test)', () => {
  let stack: GatewayUnderTest;
  let events: AuthEvents;
  let redisPort: number;
  let redis: ChildProcess | undefined;
  let port: number;

  async function startRedis() {
    redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await eventually(
      async () => {
        const client = new Redis({ port: redisPort, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
        client.on('error', () => undefined);
        try {
          await client.connect();
          return (await client.ping()) === 'PONG';
        } finally {
          client.disconnect();
        }
      },
      10_000,
      'redis-server up',
    );
  }

  function killRedis() {
    const exited = new Promise((resolve) => redis?.once('exit', resolve));
    redis?.kill('SIGKILL');
    return exited;
  }

  beforeAll(async () => {
    redisPort = await freePort();
    await startRedis();
    stack = await startGateway({ env: { REDIS_URL: `redis://127.0.0.1:${redisPort}` } });
    ({ port, events } = stack);
  });

  afterAll(async () => {
    await stack?.stop();
    if (redis && redis.exitCode === null) await killRedis();
  });

  const known = async (credential: TestCredential) =>
    eventually(async () => passed(await signedRequest(port, credential, { target: '/meter/v1/warm' })), 2000, 'credential known');
  const metric = async () => /^meter_gateway_rate_limiter_degraded (\d)/m.exec((await rawRequest(port, { target: '/metrics' })).text)?.[1];

  it('keeps answering and stays ready while Redis is gone, says degraded on /readyz and /metrics, and limits in Redis again once it is back', async () => {
    const steady = await events.createCredential();
    await known(steady);
    expect(await metric()).toBe('0');

    // Traffic runs across the kill: every request gets an answer, none a 5xx.
    const statuses: number[] = [];
    let running = true;
    const traffic = (async () => {
      while (running) {
        const batch = await Promise.all(Array.from({ length: 5 }, () => signedRequest(port, steady, { target: '/meter/v1/during' })));
        statuses.push(...batch.map((r) => r.status));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await killRedis();
    await new Promise((resolve) => setTimeout(resolve, 700));
    running = false;
    await traffic;
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.every((s) => s === 404 || s === 429)).toBe(true);

    // Still ready (it serves), degraded: the body and the metrics name Redis.
    const ready = await eventually(
      async () => {
        const r = await rawRequest(port, { target: '/readyz' });
        return r.status === 200 && r.json().status === 'degraded' ? r : false;
      },
      10_000,
      'readyz degraded',
    );
    expect(ready.json()).toMatchObject({
      status: 'degraded',
      degraded: ['redis'],
      limiter: 'in-process',
      checks: { redis: { status: 'down', required: false } },
    });
    expect((await rawRequest(port, { target: '/metrics' })).text).toMatch(/^meter_dependency_up\{dependency="redis",required="false"\} 0$/m);
    expect(await metric()).toBe('1');

    // The in-process window still limits, per process.
    const alone = await events.createCredential();
    await known(alone);
    const outage: number[] = [];
    for (let i = 0; i < 60; i++) outage.push((await signedRequest(port, alone, { target: '/meter/v1/outage' })).status);
    expect(outage.filter((s) => s === 404)).toHaveLength(59);
    expect(outage.slice(59)).toEqual([429]);
    expect(stack.process.running).toBe(true);

    await startRedis();
    await eventually(async () => (await rawRequest(port, { target: '/readyz' })).json().status === 'ready', 15_000, 'readyz ready again');
    expect((await rawRequest(port, { target: '/readyz' })).json()).toMatchObject({ status: 'ready', degraded: [], limiter: 'redis' });

    // Limits resume in Redis: the restarted server (empty) holds exactly the admissions made since.
    const after = await events.createCredential();
    await known(after);
    const resumed: number[] = [];
    for (let i = 0; i < 60; i++) resumed.push((await signedRequest(port, after, { target: '/meter/v1/after' })).status);
    expect(resumed.filter((s) => s === 404)).toHaveLength(59);
    expect(resumed.slice(59)).toEqual([429]);
    expect(await metric()).toBe('0');
    const client = new Redis({ port: redisPort, keyPrefix: stack.infra.redisKeyPrefix });
    try {
      expect(await client.zcard(`rl:{cred:${after.id}}`)).toBe(60);
    } finally {
      client.disconnect();
    }
  });
});
