import { describe, expect, it } from 'vitest';
import { Metrics } from './metrics';
import { ReadinessRegistry } from './readiness';

const failing = (message: string) => async () => {
  throw new Error(message);
};

describe('ReadinessRegistry', () => {
  it('reports each check and merges the details its describers give for the outcome', async () => {
    const registry = new ReadinessRegistry();
    let redisUp = true;
    registry.register({ name: 'postgres', check: async () => undefined });
    registry.register({
      name: 'redis',
      check: async () => {
        if (!redisUp) throw new Error('connection end');
      },
    });
    registry.describe((ready) => ({ limiter: ready ? 'redis' : 'in-process' }));

    expect(await registry.report()).toEqual({
      ready: true,
      status: 'ready',
      checks: { postgres: { status: 'up', required: true }, redis: { status: 'up', required: true } },
      failed: [],
      degraded: [],
      details: { limiter: 'redis' },
    });
    redisUp = false;
    expect(await registry.report()).toMatchObject({
      ready: false,
      status: 'not_ready',
      checks: { redis: { status: 'down', required: true, error: 'connection end' } },
      failed: ['redis'],
      details: { limiter: 'in-process' },
    });
  });

  it('stays ready, degraded, when only checks the process can serve without fail', async () => {
    const registry = new ReadinessRegistry();
    registry.register({ name: 'postgres', check: async () => undefined });
    registry.register({ name: 'redis', whenDown: 'degraded', check: failing('connection end') });
    registry.register({ name: 'nats', whenDown: 'degraded', check: async () => undefined });

    expect(await registry.report()).toMatchObject({
      ready: true,
      status: 'degraded',
      failed: [],
      degraded: ['redis'],
      checks: { redis: { status: 'down', required: false, error: 'connection end' }, nats: { status: 'up', required: false } },
    });
  });

  it('is degraded when a check answers degraded, and not ready when a required check fails as well', async () => {
    const registry = new ReadinessRegistry();
    let postgresUp = true;
    registry.register({ name: 'outbox', check: async () => 'degraded' });
    registry.register({ name: 'redis', whenDown: 'degraded', check: failing('timeout') });
    registry.register({
      name: 'postgres',
      check: async () => {
        if (!postgresUp) throw new Error('ECONNREFUSED');
      },
    });
    expect(await registry.report()).toMatchObject({ ready: true, status: 'degraded', degraded: ['outbox', 'redis'] });
    postgresUp = false;
    expect(await registry.report()).toMatchObject({ ready: false, status: 'not_ready', failed: ['postgres'], degraded: ['outbox', 'redis'] });
  });

  it('fails a check that does not answer within the timeout', async () => {
    const registry = new ReadinessRegistry();
    registry.register({ name: 'nats', check: () => new Promise(() => undefined) });
    expect(await registry.report(10)).toMatchObject({ ready: false, checks: { nats: { status: 'down', error: 'nats did not answer within 10 ms' } } });
  });

  it('has no details without describers', async () => {
    expect((await new ReadinessRegistry().report()).details).toEqual({});
  });

  it('exports each check as meter_dependency_up, 1 while it passes, with whether it is required', async () => {
    const metrics = new Metrics();
    const registry = new ReadinessRegistry(metrics);
    let redisUp = true;
    registry.register({ name: 'postgres', check: async () => undefined });
    registry.register({
      name: 'redis',
      whenDown: 'degraded',
      check: async () => {
        if (!redisUp) throw new Error('connection end');
      },
    });
    registry.register({ name: 'outbox', whenDown: 'degraded', check: async () => 'degraded' });
    const series = async () => (await metrics.registry.metrics()).split('\n').filter((line) => line.startsWith('meter_dependency_up{'));

    expect(await series()).toEqual([
      'meter_dependency_up{dependency="postgres",required="true"} 1',
      'meter_dependency_up{dependency="redis",required="false"} 1',
      'meter_dependency_up{dependency="outbox",required="false"} 0',
    ]);
    redisUp = false;
    expect(await series()).toContain('meter_dependency_up{dependency="redis",required="false"} 0');
  });
});
