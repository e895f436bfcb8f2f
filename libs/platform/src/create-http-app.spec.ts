import type { AddressInfo } from 'node:net';
import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { InjectOptions } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpCoreModule, ProblemException, ReadinessRegistry } from '@meter/http';
import { rawExchange } from '@meter/testing';
import { createHttpApp } from './create-http-app';

@Controller('echo')
class EchoController {
  @Post()
  echo(@Body() body: unknown) {
    return { received: body };
  }

  @Get('boom')
  boom() {
    throw new Error('secret internals: password=hunter2');
  }

  @Get('teapot')
  teapot() {
    throw new ProblemException(403, 'insufficient_scope', 'the credential lacks scope meter:consumption:read');
  }
}

@Module({ imports: [HttpCoreModule], controllers: [EchoController] })
class TestModule {}

describe('createHttpApp', () => {
  let app: NestFastifyApplication;
  let healthy = true;

  beforeAll(async () => {
    app = await createHttpApp(TestModule, pino({ level: 'silent' }));
    app.get(ReadinessRegistry).register({
      name: 'redis',
      check: async () => {
        if (!healthy) throw new Error('connect ECONNREFUSED 127.0.0.1:6379');
      },
    });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });
  afterAll(() => app.close());

  const inject = (options: InjectOptions) => app.getHttpAdapter().getInstance().inject(options);

  it('answers a broken JSON body with 400 problem+json naming the body', async () => {
    const response = await inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{"a":' });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    const problem = response.json();
    expect(problem).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'body' }] });
    expect(problem.request_id).toBe(response.headers['x-request-id']);
  });

  it('answers a body over 64 KiB with 413', async () => {
    const payload = JSON.stringify({ blob: 'x'.repeat(70 * 1024) });
    const response = await inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'payload_too_large', status: 413 });
  });

  it('accepts a body just under the limit', async () => {
    const payload = JSON.stringify({ blob: 'x'.repeat(60 * 1024) });
    const response = await inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload });
    expect(response.statusCode).toBe(201);
  });

  it('answers an unsupported content type with 415', async () => {
    const response = await inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/x-foo' }, payload: 'a' });
    expect(response.statusCode).toBe(415);
    expect(response.json().code).toBe('unsupported_media_type');
  });

  it('hides an unexpected error behind a generic 500 without internals', async () => {
    const response = await inject({ method: 'GET', url: '/echo/boom' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toMatch(/hunter2|secret internals|at .*\.ts/);
    expect(response.json()).toMatchObject({ code: 'internal_error', status: 500 });
  });

  it('renders a ProblemException as given', async () => {
    const response = await inject({ method: 'GET', url: '/echo/teapot' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'insufficient_scope', title: 'Forbidden', detail: 'the credential lacks scope meter:consumption:read' });
  });

  it("answers a target that does not percent-decode with 400 problem+json, not Fastify's own body", async () => {
    const response = await inject({ method: 'GET', url: '/echo/%zz' });
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({ code: 'validation_failed', errors: [{ field: 'path' }] });
    expect(response.json().request_id).toBe(response.headers['x-request-id']);
  });

  describe("requests Node's HTTP parser refuses, over a real socket", () => {
    let port: number;
    beforeAll(async () => {
      await app.listen(0, '127.0.0.1');
      port = (app.getHttpServer().address() as AddressInfo).port;
    });

    const raw = async (bytes: string) => {
      const { status, head, body } = await rawExchange(port, bytes);
      return { status, head, problem: JSON.parse(body) };
    };

    it.each([
      ['a header name with a space', 'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n'],
      ['a Content-Length that is not a number', 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'],
      ['an unknown method', 'FOO /healthz HTTP/1.1\r\nHost: x\r\n\r\n'],
    ])('%s: 400 problem+json naming the request', async (_, bytes) => {
      const { status, head, problem } = await raw(bytes);
      expect(status).toBe(400);
      expect(head).toContain('content-type: application/problem+json');
      expect(problem).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'request' }] });
      expect(head).toContain(`x-request-id: ${problem.request_id}`);
    });

    it('headers over the size limit: 431 problem+json', async () => {
      const { status, head, problem } = await raw(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      expect(status).toBe(431);
      expect(head).toContain('content-type: application/problem+json');
      expect(problem).toMatchObject({ status: 431, code: 'request_header_fields_too_large', title: 'Request Header Fields Too Large' });
    });
  });

  it('answers an unknown route with 404 problem+json', async () => {
    const response = await inject({ method: 'GET', url: '/nowhere' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'not_found', status: 404 });
  });

  it('keeps a safe caller request id and replaces an unsafe one', async () => {
    const kept = await inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(kept.headers['x-request-id']).toBe('abc-123');
    const replaced = await inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'bad id\u0000' } });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('says ready, then 503 naming the failed dependency, then ready again', async () => {
    expect((await inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    healthy = false;
    const down = await inject({ method: 'GET', url: '/readyz' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({ code: 'not_ready', failed: ['redis'], checks: { redis: { status: 'down' } } });
    expect(down.json().detail).toContain('redis');
    healthy = true;
    expect((await inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('serves Prometheus metrics with default and HTTP latency series', async () => {
    await inject({ method: 'GET', url: '/healthz' });
    const response = await inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('process_cpu_user_seconds_total');
    expect(response.body).toMatch(/meter_http_request_duration_seconds_bucket\{[^}]*route="\/healthz"/);
  });
});
