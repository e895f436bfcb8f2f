import { describe, expect, it } from 'vitest';
import { ReadinessRegistry } from './readiness';

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
      checks: { postgres: { status: 'up' }, redis: { status: 'up' } },
      details: { limiter: 'redis' },
    });
    redisUp = false;
    expect(await registry.report()).toMatchObject({
      ready: false,
      checks: { redis: { status: 'down', error: 'connection end' } },
      details: { limiter: 'in-process' },
    });
  });

  it('has no details without describers', async () => {
    expect((await new ReadinessRegistry().report()).details).toEqual({});
  });
});
