import Fastify from 'fastify';

/**
 * The baseline of the gateway benchmark: one Fastify route answering the
 * same JSON the gateway answered, with nothing in front of it. Run as its
 * own process, like the gateway.
 */
async function main() {
  const port = Number(process.env.BARE_PORT);
  const body = process.env.BARE_BODY ?? '{}';
  const status = Number(process.env.BARE_STATUS ?? 200);
  const contentType = process.env.BARE_CONTENT_TYPE ?? 'application/json; charset=utf-8';
  const app = Fastify({ logger: false });
  app.get('/meter/v1/devices', async (_request, reply) => reply.status(status).type(contentType).send(body));
  await app.listen({ port, host: '127.0.0.1' });
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

void main();
