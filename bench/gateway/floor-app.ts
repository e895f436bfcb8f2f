import Fastify, { type FastifyInstance } from 'fastify';
import type Redis from 'ioredis';
import { DEFAULT_MAX_SKEW_SECONDS, parseAuthorization, timestampWithinSkew, verifySignature } from '@meter/signing';
import { credentialLimitKey, credentialStampCheck, rateLimitHeaders, RedisRateLimiter, WINDOW_MS } from '@meter/gateway';

/** The one credential the floor knows, at the version a gateway's view would hold. */
export interface FloorCredential {
  accessKey: string;
  secretKey: string;
  credentialId: string;
  version: number;
}

export interface FloorOptions {
  redis: Redis;
  credential: FloorCredential;
  /** Requests per credential per sliding minute (RATE_LIMIT_PER_MINUTE). */
  limit: number;
  /** What `GET /meter/v1/devices` answers, and as what. */
  body: string;
  contentType: string;
}

/**
 * The floor of the gateway's design, for the benchmark: the work every request
 * requires (header parse, clock, credential lookup, HMAC-SHA256 over the raw
 * target, the Redis sliding-window script with the credential's stamp
 * compared inside it, the rate-limit headers) done by the gateway's own
 * functions on a bare Fastify route, without Nest, metrics, logging or request
 * ids. What the gateway costs above this row is the framework and the
 * platform; what this row costs above the bare route is the required work
 * itself. Not a product: it knows one credential and answers 401 with no body
 * otherwise.
 */
export function floorApp(options: FloorOptions): FastifyInstance {
  const { credential, limit } = options;
  const limiter = new RedisRateLimiter(options.redis);
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
    const decision = await limiter.consume(
      credentialLimitKey(credential.credentialId),
      limit,
      WINDOW_MS,
      credentialStampCheck(credential.credentialId, credential.version),
    );
    // The gateway refuses a revocation and re-checks any other change against auth; the floor knows one state only.
    if (decision.credentialChanged) return reply.code(401).send();
    void reply.headers(rateLimitHeaders('default', decision));
    if (!decision.allowed) return reply.code(429).send();
  });
  app.get('/meter/v1/devices', async (_request, reply) => reply.type(options.contentType).send(options.body));
  return app;
}
