import { Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpCoreModule, ReadinessRegistry } from '@meter/http';
import { createHttpApp } from './create-http-app';

@Module({ imports: [HttpCoreModule] })
class ProbesOnly {}

/** `/readyz` and `/metrics` of a process with a required dependency and one it can serve without. */
describe('readiness over HTTP', () => {
  let app: NestFastifyApplication;
  const up = { postgres: true, redis: true };

  beforeAll(async () => {
    app = await createHttpApp(ProbesOnly, pino({ level: 'silent' }));
    const registry = app.get(ReadinessRegistry);
    for (const name of ['postgres', 'redis'] as const) {
      registry.register({
        name,
        whenDown: name === 'redis' ? 'degraded' : 'not-ready',
        check: async () => {
          if (!up[name]) throw new Error(`${name} refused the connection`);
        },
      });
    }
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });
  afterAll(() => app.close());

  const get = (url: string) => app.getHttpAdapter().getInstance().inject({ method: 'GET', url });
  const dependencyUp = async (name: string) =>
    new RegExp(`^meter_dependency_up\\{dependency="${name}",required="(true|false)"\\} (\\d)$`, 'm').exec((await get('/metrics')).body)?.slice(1);

  it('is ready with every dependency up', async () => {
    const response = await get('/readyz');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ready', degraded: [], checks: { postgres: { status: 'up', required: true } } });
    expect(await dependencyUp('redis')).toEqual(['false', '1']);
  });

  it('stays ready, says degraded and names the dependency it serves without, in the body and the metrics', async () => {
    up.redis = false;
    try {
      const response = await get('/readyz');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        status: 'degraded',
        degraded: ['redis'],
        checks: { redis: { status: 'down', required: false, error: 'redis refused the connection' }, postgres: { status: 'up' } },
      });
      expect(await dependencyUp('redis')).toEqual(['false', '0']);
      expect(await dependencyUp('postgres')).toEqual(['true', '1']);
    } finally {
      up.redis = true;
    }
  });

  it('answers 503 problem+json with Retry-After naming a required dependency that is down', async () => {
    up.postgres = false;
    up.redis = false;
    try {
      const response = await get('/readyz');
      expect(response.statusCode).toBe(503);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.json()).toMatchObject({ status: 503, code: 'not_ready', failed: ['postgres'], degraded: ['redis'] });
      expect(response.json().detail).toBe('not ready: postgres (postgres refused the connection)');
      expect(await dependencyUp('postgres')).toEqual(['true', '0']);
    } finally {
      up.postgres = true;
      up.redis = true;
    }
    expect((await get('/readyz')).json()).toMatchObject({ status: 'ready' });
  });
});
