import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pacedLoad } from './paced-load';

/** The latency generator against a local node:http server that answers at once (the first `slowFor` requests after a delay). */
describe('pacedLoad', () => {
  let server: Server;
  let port: number;
  let received = 0;
  let slowFor = 0;

  beforeAll(async () => {
    server = createServer((_request, response) => {
      const slow = ++received <= slowFor;
      const answer = () => response.writeHead(slow ? 503 : 200, { 'content-length': '2' }).end('{}');
      if (slow) setTimeout(answer, 50);
      else answer();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const request = () => `GET / HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`;

  it('sends the warm-up requests first and counts only the ones after them', async () => {
    received = 0;
    // The warm-up's first requests are slow and answered 503: none of that may show in the result.
    slowFor = 8;
    const result = await pacedLoad({ port, connections: 4, rate: 500, durationSeconds: 0.4, warmupSeconds: 0.2, request });
    expect(received).toBe(300);
    expect(result.total).toBe(200);
    expect(result.statuses).toEqual({ 200: 200 });
    // No 503 among the counted: the slow warm-up answers are left out (no bound on latency, which the machine decides).
    expect(result.errors).toBe(0);
  });

  it('counts every request from the start without a warm-up', async () => {
    received = 0;
    slowFor = 20;
    const result = await pacedLoad({ port, connections: 4, rate: 500, durationSeconds: 0.4, request });
    expect(received).toBe(200);
    expect(result.statuses).toEqual({ 503: 20, 200: 180 });
    expect(result.max).toBeGreaterThanOrEqual(50);
  });
});
