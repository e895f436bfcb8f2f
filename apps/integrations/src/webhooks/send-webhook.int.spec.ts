import { createServer, type Server, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postWebhook } from './send-webhook';

// gc() without starting the worker with --expose-gc: the flag set now applies to contexts made after it.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': '1', 'webhook-signature': 'v1,x' };

describe('postWebhook against a receiver that accepts and never answers', () => {
  let server: Server;
  let url: string;
  const closed: Promise<void>[] = [];
  const sockets: Socket[] = [];

  beforeAll(async () => {
    // Reads the request and answers nothing, ever; notes when the client lets go of the connection.
    server = createServer((socket: Socket) => {
      sockets.push(socket);
      socket.on('data', () => undefined);
      closed.push(new Promise((resolve) => socket.on('close', () => resolve())));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    url = `http://127.0.0.1:${address.port}/hook`;
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('gives up at the limit and closes the connection although garbage is collected while it waits', async () => {
    const timeoutMs = 1500;
    const startedAt = Date.now();
    const attempt = postWebhook(url, headers, '{}', { allowPrivate: true, timeoutMs, signal: new AbortController().signal });
    // Collections while the attempt waits: a deadline nothing holds would be collected and never fire.
    const collections = setInterval(gc, 100);
    try {
      const outcome = await attempt;
      expect(outcome).toEqual({ error: 'no answer within the time allowed' });
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(timeoutMs - 5);
    } finally {
      clearInterval(collections);
    }
    // The socket was destroyed, not left open on the receiver.
    expect(closed).toHaveLength(1);
    await closed[0];
  }, 20_000);

  it('stops at once when the caller aborts', async () => {
    const controller = new AbortController();
    const attempt = postWebhook(url, headers, '{}', { allowPrivate: true, timeoutMs: 60_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect(await attempt).toEqual({ error: 'stopped' });
  }, 20_000);
});
