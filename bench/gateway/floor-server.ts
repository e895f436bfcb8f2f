import Fastify from 'fastify';
import Redis from 'ioredis';
import { DEFAULT_MAX_SKEW_SECONDS, parseAuthorization, timestampWithinSkew, verifySignature } from '@meter/signing';
import { credentialLimitKey } from '../../apps/gateway/src/rate-limit/limit-keys';
import { rateLimitHeaders } from '../../apps/gateway/src/rate-limit/rate-limit-headers';
import { RedisRateLimiter } from '../../apps/gateway/src/rate-limit/redis-rate-limiter';
import { WINDOW_MS } from '../../apps/gateway/src/rate-limit/gateway-rate-limiter';

/**
 * The floor of the gateway's design, for the benchmark: the work the issue
 * requires of every request (header parse, clock, credential lookup,
 * HMAC-SHA256 over the raw target, the Redis sliding-window script, the
 * rate-limit headers) done by the gateway's own functions on a bare Fastify
 * route, without Nest, metrics, logging or request ids. What the gateway costs
 * above this row is the framework and the platform; what this row costs above
 * the bare route is the required work itself. Not a product: it knows one
 * credential (given by the bench) and answers 401 with no body otherwise.
 */
async function main() {
  const port = Number(process.env.FLOOR_PORT);
  const body = process.env.FLOOR_BODY ?? '{}';
  const contentType = process.env.FLOOR_CONTENT_TYPE ?? 'application/json; charset=utf-8';
  const limit = Number(process.env.RATE_LIMIT_PER_MINUTE ?? 60);
  const credential = { accessKey: process.env.FLOOR_ACCESS_KEY ?? '', secretKey: process.env.FLOOR_SECRET_KEY ?? '', credentialId: 'floor' };
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { keyPrefix: process.env.REDIS_KEY_PREFIX ?? 'floor:' });
  const limiter = new RedisRateLimiter(redis);

  const app = Fastify({ logger: false });
  app.addHook('preHandler', async (request, reply) => {
    const parsed = parseAuthorization(request.headers.authorization);
    const valid =
      parsed.ok &&
      timestampWithinSkew(parsed.timestamp, Math.floor(Date.now() / 1000), DEFAULT_MAX_SKEW_SECONDS) &&
      parsed.accessKey === credential.accessKey &&
      verifySignature({
        secretKey: credential.secretKey,
        method: request.raw.method ?? 'GET',
        target: request.raw.url ?? '/',
        timestamp: parsed.timestamp,
        signature: parsed.signature,
      });
    if (!valid) return reply.code(401).send();
    const decision = await limiter.consume(credentialLimitKey(credential.credentialId), limit, WINDOW_MS);
    void reply.headers(rateLimitHeaders('default', decision));
    if (!decision.allowed) return reply.code(429).send();
  });
  app.get('/meter/v1/devices', async (_request, reply) => reply.type(contentType).send(body));
  await app.listen({ port, host: '127.0.0.1' });
  process.once(
    'SIGTERM',
    () =>
      void app
        .close()
        .then(() => redis.quit())
        .then(() => process.exit(0)),
  );
}

void main();
