import type { AddressInfo } from 'node:net';
import { Body, Controller, Get, Module, Param, Post } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ECHO_LIMIT, HttpCoreModule } from '@meter/http';
import { rawExchange } from '@meter/testing';
import { createHttpApp } from './create-http-app';

@Controller('things')
class ThingsController {
  @Get(':id')
  one(@Param('id') id: string) {
    return { id };
  }

  @Post()
  make(@Body() body: unknown) {
    return { received: body };
  }
}

@Module({ imports: [HttpCoreModule], controllers: [ThingsController] })
class OddRequestsModule {}

/** Small, clean answers to requests no client should send, over a real socket. */
describe('createHttpApp and odd requests', () => {
  let app: NestFastifyApplication;
  let port: number;

  beforeAll(async () => {
    app = await createHttpApp(OddRequestsModule, pino({ level: 'silent' }), { requestTimeoutMs: 1000 });
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => app.close());

  const exchange = (bytes: string) => rawExchange(port, bytes);

  it.each([
    ['an unknown path', `/${'a'.repeat(3000)}`, 404, 'not_found'],
    ['a path parameter over the router limit', `/things/${'a'.repeat(3000)}`, 414, 'uri_too_long'],
  ])('%s of 3,000 characters: a small problem+json that does not repeat it whole', async (_, path, status, code) => {
    const { status: got, head, body, length } = await exchange(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(got).toBe(status);
    expect(head).toContain('content-type: application/problem+json');
    const problem = JSON.parse(body);
    expect(problem).toMatchObject({ status, code });
    expect(problem.detail.length).toBeLessThan(ECHO_LIMIT + 40);
    expect(length).toBeLessThan(1024);
  });

  it('an Expect other than 100-continue: 417 problem+json with a request id', async () => {
    const { status, head, body } = await exchange('GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nX-Request-Id: odd-1\r\n\r\n');
    expect(status).toBe(417);
    expect(head).toContain('content-type: application/problem+json');
    expect(head).toContain('x-request-id: odd-1');
    expect(JSON.parse(body)).toMatchObject({ status: 417, code: 'expectation_failed', title: 'Expectation Failed', request_id: 'odd-1' });
  });

  it('Expect: 100-continue still works', async () => {
    const { head, body } = await exchange(
      'POST /things HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
    );
    expect(head).toBe('http/1.1 100 continue');
    expect(body).toMatch(/^HTTP\/1.1 201 /);
  });

  it('a body that stops arriving: 408 problem+json once the request timeout passes, and the connection is closed', async () => {
    const { status, head, body } = await exchange('POST /things HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":');
    expect(status).toBe(408);
    expect(head).toContain('content-type: application/problem+json');
    expect(head).toContain('connection: close');
    expect(JSON.parse(body)).toMatchObject({ status: 408, code: 'request_timeout', title: 'Request Timeout' });
  });

  it('headers that stop arriving: 408 problem+json too', async () => {
    const { status, body } = await exchange('GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    expect(status).toBe(408);
    expect(JSON.parse(body)).toMatchObject({ code: 'request_timeout' });
  });
});
