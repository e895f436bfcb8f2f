import { randomBytes } from 'node:crypto';
import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ConfigModule, loadConfig } from '@meter/config';
import { platformStreams, BusNames } from '@meter/contracts';
import { HttpCoreModule } from '@meter/http';
import { NatsModule } from '@meter/messaging';
import { BODY_LIMIT_BYTES, createHttpApp } from '@meter/platform';
import { RedisModule } from '@meter/redis';
import { signRequest } from '@meter/signing';
import { eventually } from '@meter/testing';
import { AuthEvents, testKeyRing, type TestCredential } from '@meter/testing/auth-events';
import { CurrentCaller, type Caller } from './caller';
import { SecurityModule } from './security.module';
import { SecurityPipeline } from './security-pipeline';

@Controller('meter/v1/echo')
class EchoController {
  @Get()
  whoami(@CurrentCaller() caller: Caller) {
    return { caller };
  }

  @Post()
  echo(@CurrentCaller() caller: Caller, @Body() body: unknown) {
    return { orgId: caller.orgId, body };
  }
}

/** The pipeline in front of a real controller, in process: what the consumption controllers will see. */
describe('SecurityPipeline in front of controllers', () => {
  let app: NestFastifyApplication;
  let events: AuthEvents;
  let credential: TestCredential;
  const busPrefix = `pint${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    const infra = inject('infra');
    const keys = await testKeyRing();
    events = await AuthEvents.connect(infra.natsUrl, new BusNames(busPrefix), keys.ring);
    credential = await events.createCredential();
    const config = loadConfig({
      NODE_ENV: 'test',
      REDIS_URL: infra.redisUrl,
      NATS_URL: infra.natsUrl,
      BUS_PREFIX: busPrefix,
      REDIS_KEY_PREFIX: `${busPrefix}:`,
      CREDENTIAL_KEYRING: keys.env,
    });

    @Module({
      imports: [
        ConfigModule.forRoot(config),
        HttpCoreModule,
        RedisModule.forService('gateway-int'),
        NatsModule.forService('gateway-int', (bus) => ({ streams: [platformStreams(bus).authEvents], consumers: [] })),
        SecurityModule,
      ],
      controllers: [EchoController],
    })
    class TestGatewayModule {}

    app = await createHttpApp(TestGatewayModule, pino({ level: 'silent' }));
    app.get(SecurityPipeline).install(app, BODY_LIMIT_BYTES);
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    // Ready means the credential view has caught up with the stream.
    await eventually(async () => (await app.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/readyz' })).statusCode === 200, 10_000, 'ready');
  });

  afterAll(async () => {
    await app?.close();
    const { connectNats } = await import('@meter/messaging');
    const { jetstreamManager } = await import('@nats-io/jetstream');
    const nc = await connectNats(inject('infra').natsUrl, 'pint-cleanup');
    await (await jetstreamManager(nc)).streams.delete(new BusNames(busPrefix).stream('AUTH_EVENTS')).catch(() => false);
    await nc.drain();
    await events?.close();
  });

  const send = (method: 'GET' | 'POST', url: string, body?: string) =>
    app
      .getHttpAdapter()
      .getInstance()
      .inject({
        method,
        url,
        payload: body,
        headers: { ...signRequest({ ...credential, method, target: url, body }), ...(body ? { 'content-type': 'application/json' } : {}) },
      });

  it('hands the controller the caller of the verified credential', async () => {
    const response = await send('GET', '/meter/v1/echo?x=1');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      caller: { orgId: credential.orgId, credentialId: credential.id, accessKey: credential.accessKey, type: 'secret' },
    });
    expect(response.headers['ratelimit-policy']).toBe('"default";q=60;w=60');
  });

  it('hands @Body() the JSON parsed after verifying the raw bytes', async () => {
    const body = '{ "devices" : [ { "device_id" : 7 } ] }';
    const response = await send('POST', '/meter/v1/echo', body);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ orgId: credential.orgId, body: { devices: [{ device_id: 7 }] } });
  });

  it('never reaches the controller unauthenticated, whatever the spelling of the path', async () => {
    for (const url of ['/meter/v1/echo', '/%6Deter/v1/echo', '/meter/v1/ech%6F']) {
      const response = await app.getHttpAdapter().getInstance().inject({ method: 'GET', url });
      expect({ url, status: response.statusCode, code: response.json().code }).toEqual({ url, status: 401, code: 'missing_authorization' });
    }
    // Signed as sent, the encoded spelling is an ordinary request to the same route.
    expect((await send('GET', '/%6Deter/v1/echo')).statusCode).toBe(200);
  });
});
