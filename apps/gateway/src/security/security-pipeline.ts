import { Inject, Injectable } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Counter } from 'prom-client';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { setAccessLogFields, clientAddressOf, Metrics, ProblemException, sendProblem, validationFailed } from '@meter/http';
import { DEFAULT_MAX_SKEW_SECONDS } from '@meter/signing';
import { CredentialFeed } from '../credentials/credential-feed.service';
import { CredentialLookup } from '../credentials/credential-lookup';
import type { CredentialRecord } from '../credentials/credential-record';
import { CredentialUsage } from '../credentials/credential-usage';
import { credentialStampCheck } from '../rate-limit/credential-stamp-check';
import { GatewayRateLimiter } from '../rate-limit/gateway-rate-limiter';
import { credentialLimitKey, sourceLimitKey } from '../rate-limit/limit-keys';
import { retryAfterSeconds, type RateLimitDecision, type StampCheck } from '../rate-limit/rate-limit-decision';
import { rateLimitHeaders } from '../rate-limit/rate-limit-headers';
import { Clock } from '../clock/clock';
import { CREDENTIAL_REVOKED, type AuthFailure } from './auth-failure';
import { authenticate, type AuthContext, type SignedRequest } from './authenticate';
import { setCaller } from './caller';
import { isWellFormedMediaType, parseVerifiedBody } from './json-body';

/** Routes anyone may call: the probes an orchestrator and Prometheus use. */
const OPEN_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Open by matched route pattern, never by the raw path: the probes and the
 * published API document (Swagger UI at /docs, its assets, /docs/openapi.json).
 */
function isOpenRoute(route: string | undefined): boolean {
  if (route === undefined) return false;
  return OPEN_ROUTES.has(route) || route === '/docs' || route.startsWith('/docs/');
}

const CREDENTIAL_POLICY = 'default';
const AUTH_FAILURE_POLICY = 'auth-failures';

/**
 * Every request but the probes passes here before routing to a controller
 * (Fastify preHandler: after the body's raw bytes are read, before
 * anything parses them). Deny by default: routes that do not exist are
 * authenticated too, so a stranger gets 401 and an integrator 404.
 */
@Injectable()
export class SecurityPipeline {
  private readonly refused: Counter<'code'>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CredentialFeed) private readonly credentials: CredentialFeed,
    @Inject(GatewayRateLimiter) private readonly limiter: GatewayRateLimiter,
    @Inject(CredentialUsage) private readonly usage: CredentialUsage,
    @Inject(CredentialLookup) private readonly lookup: CredentialLookup,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(Metrics) metrics: Metrics,
  ) {
    this.refused = new Counter({
      name: 'meter_gateway_requests_refused_total',
      help: 'Requests the security pipeline refused, by problem code (401/403 codes and rate_limited)',
      labelNames: ['code'] as const,
      registers: [metrics.registry],
    });
  }

  /** Call before the routes are registered (runService `configure`). */
  install(app: NestFastifyApplication, bodyLimit: number): void {
    const fastify = app.getHttpAdapter().getInstance();
    // Fastify answers a Content-Type it cannot parse (empty, no "/") with 415 before any preHandler, so
    // before authentication and without RateLimit headers. Such a type is not JSON: make it a well-formed
    // type that is not JSON either, and the request is authenticated first, then parseVerifiedBody's 415.
    fastify.addHook('onRequest', (request, _reply, done) => {
      const type = request.headers['content-type'];
      if (type !== undefined && !isWellFormedMediaType(type)) request.headers['content-type'] = 'application/octet-stream';
      done();
    });
    // Keep every body as raw bytes: the signature covers them exactly as sent. Registered
    // through Nest so it does not add its own JSON parser over this one at init.
    fastify.removeAllContentTypeParsers();
    app.useBodyParser('*', { bodyLimit }, async (_request: FastifyRequest, body: Buffer) => body);
    // A CORS preflight carries no credential: it is answered for the origins some active credential allows.
    fastify.addHook('onRequest', (request, reply, done) => {
      if (!isPreflight(request) || isOpenRoute(request.routeOptions?.url)) return done();
      const origin = oneOrigin(request.headers.origin);
      if (origin !== undefined && this.credentials.allowsOrigin(origin)) {
        void reply
          .code(204)
          .headers({ ...corsHeaders(origin), ...PREFLIGHT_HEADERS })
          .send();
        return;
      }
      this.reject(request, reply, new ProblemException(403, 'origin_not_allowed', 'no credential allows browsers from this Origin'), {});
    });
    fastify.addHook('preHandler', (request, reply) => this.handle(request, reply));
    // Refusals made before the pipeline could run (a body over the limit) carry the source address's
    // failure budget too, and spend it: nothing in them was verified. (Fastify answers a path
    // that does not decode through frameworkErrors, which runs no hooks: that 400 has no such headers.)
    fastify.addHook('onSend', (request, reply, payload, done) => {
      if (reply.statusCode < 400 || reply.hasHeader('ratelimit-policy') || isOpenRoute(request.routeOptions?.url)) return done(null, payload);
      this.limiter.consume(sourceLimitKey(this.addressOf(request)), this.config.AUTH_FAILURE_LIMIT_PER_MINUTE).then(
        (decision) => {
          void reply.headers(rateLimitHeaders(AUTH_FAILURE_POLICY, decision));
          done(null, payload);
        },
        () => done(null, payload),
      );
    });
  }

  private addressOf(request: FastifyRequest): string | undefined {
    return clientAddressOf(request.raw, this.config.TRUSTED_PROXIES);
  }

  async handle(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (isOpenRoute(request.routeOptions?.url)) return;

    const raw = Buffer.isBuffer(request.body) ? request.body : undefined;
    // Worked out only when needed: an allow-list or a failure to charge to the address.
    let address: string | undefined | null = null;
    const addressOf = () => (address ??= this.addressOf(request));
    const signed: SignedRequest = {
      method: request.raw.method ?? request.method,
      target: request.raw.url ?? request.url,
      body: raw,
      authorization: request.headers.authorization,
      origin: oneOrigin(request.headers.origin),
      clientAddress: addressOf,
    };
    // The access key the check asked the view for, and the record it got.
    let accessKey: string | undefined;
    let record: CredentialRecord | undefined;
    const context: AuthContext = {
      nowSeconds: Math.floor(this.clock.now() / 1000),
      maxSkewSeconds: DEFAULT_MAX_SKEW_SECONDS,
      findCredential: (key) => {
        accessKey = key;
        record = this.credentials.find(key);
        // The access line names the credential the request claims, refused or not (never its key or secret).
        if (record) setAccessLogFields(request, { org_id: record.orgId, credential_id: record.credentialId });
        // A browser on an origin the credential allows may read the answer, refusals included.
        if (record && signed.origin !== undefined && record.allowedOrigins.includes(signed.origin)) void reply.headers(corsHeaders(signed.origin));
        return record;
      },
    };
    let result = authenticate(signed, context);
    // Created moments ago, the credential's event may not have reached this view yet: ask auth once.
    if (!result.ok && result.code === 'unknown_access_key' && accessKey !== undefined && (await this.lookup.fetchUnknown(accessKey)) === 'found') {
      result = authenticate(signed, context);
    }
    if (!result.ok) return this.refuse(request, reply, result, addressOf);

    let decision = await this.limiter.consume(credentialLimitKey(result.caller.credentialId), this.config.RATE_LIMIT_PER_MINUTE, stampCheck(record));
    if (decision.credentialChanged) {
      // Auth stamps a revocation or an allow-list change before it answers it; this view's version is older.
      if (decision.credentialChanged.revoked) return this.refuse(request, reply, CREDENTIAL_REVOKED, addressOf);
      await this.lookup.refresh(result.caller.accessKey);
      result = authenticate(signed, context);
      if (!result.ok) return this.refuse(request, reply, result, addressOf);
      decision = await this.limiter.consume(credentialLimitKey(result.caller.credentialId), this.config.RATE_LIMIT_PER_MINUTE, stampCheck(record));
      if (decision.credentialChanged) return this.reject(request, reply, credentialStateUnavailable(), {});
    }
    const headers = rateLimitHeaders(CREDENTIAL_POLICY, decision);
    if (!decision.allowed) return this.reject(request, reply, rateLimited(decision, 'the credential exceeded its rate limit'), headers);
    void reply.headers(headers);
    setCaller(request, result.caller);
    this.usage.record(result.caller.credentialId, result.caller.orgId, Date.now());

    const body = parseVerifiedBody(raw, request.headers['content-type']);
    if (!body.ok) {
      const problem =
        body.status === 400 ? validationFailed([{ field: 'body', message: body.message }]) : new ProblemException(415, 'unsupported_media_type', body.message);
      return this.reject(request, reply, problem, headers);
    }
    request.body = body.body;
  }

  /** An authentication failure: it spends the source address's budget, never the credential's. */
  private async refuse(request: FastifyRequest, reply: FastifyReply, failure: AuthFailure, addressOf: () => string | undefined): Promise<FastifyReply> {
    const decision = await this.limiter.consume(sourceLimitKey(addressOf()), this.config.AUTH_FAILURE_LIMIT_PER_MINUTE);
    const headers = rateLimitHeaders(AUTH_FAILURE_POLICY, decision);
    if (!decision.allowed) return this.reject(request, reply, rateLimited(decision, 'too many failed authentications from this address'), headers);
    const wwwAuthenticate: Record<string, string> = failure.status === 401 ? { 'www-authenticate': 'SVC-HMAC' } : {};
    return this.reject(request, reply, new ProblemException(failure.status, failure.code, failure.detail, failure.extensions), {
      ...headers,
      ...wwwAuthenticate,
    });
  }

  private reject(request: FastifyRequest, reply: FastifyReply, problem: ProblemException, headers: Record<string, string>): FastifyReply {
    this.refused.inc({ code: problem.code });
    sendProblem(reply, problem.toProblem(request.id), { ...headers, ...problem.headers });
    return reply;
  }
}

/** A browser's CORS preflight: OPTIONS with Origin and Access-Control-Request-Method. */
function isPreflight(request: FastifyRequest): boolean {
  return request.method === 'OPTIONS' && request.headers.origin !== undefined && request.headers['access-control-request-method'] !== undefined;
}

function oneOrigin(header: string | string[] | undefined): string | undefined {
  return Array.isArray(header) ? header[0] : header;
}

/** Lets the page on `origin` read the answer and the headers a client needs from it. */
function corsHeaders(origin: string): Record<string, string> {
  return {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': 'RateLimit, RateLimit-Policy, Retry-After, X-Request-Id',
    vary: 'Origin',
  };
}

/** What a preflight may ask for: the gateway's methods and the headers its routes read; cached 10 minutes. */
const PREFLIGHT_HEADERS = {
  'access-control-allow-methods': 'GET, POST',
  'access-control-allow-headers': 'Authorization, Content-Type, X-Timezone, X-Unit',
  'access-control-max-age': '600',
};

/** The stamp to compare in the rate-limit script: the credential's, against the version the request was checked with. */
function stampCheck(record: CredentialRecord | undefined): StampCheck | undefined {
  return record && credentialStampCheck(record.credentialId, record.version);
}

/** The credential changed moments ago and auth could not be asked for its new state. */
export function credentialStateUnavailable(): ProblemException {
  return new ProblemException(
    503,
    'credential_state_unavailable',
    'the credential changed moments ago and its new state is not available yet; retry',
    { retry_after: 1 },
    { 'retry-after': '1' },
  );
}

function rateLimited(decision: RateLimitDecision, detail: string): ProblemException {
  const seconds = retryAfterSeconds(decision);
  return new ProblemException(429, 'rate_limited', `${detail}; retry after ${seconds} s`, { retry_after: seconds }, { 'retry-after': String(seconds) });
}
