import type { FastifyInstance } from 'fastify';
import { accessLogFieldsOf } from './access-log';
import { Metrics } from './metrics';
import { REQUEST_ID_HEADER } from './request-id';

const QUIET_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/** Echoes the request id, times every answer, logs one line per request. */
export function installHttpHooks(fastify: FastifyInstance, metrics: Metrics): void {
  // Callback hooks, not async ones: no promise per request for work that never waits.
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions?.url ?? 'unmatched';
    const seconds = reply.elapsedTime / 1000;
    metrics.httpDuration.observe({ method: request.method, route, status_code: String(reply.statusCode) }, seconds);
    if (QUIET_ROUTES.has(route)) return done();
    const ms = Math.round(reply.elapsedTime * 100) / 100;
    request.log.info({ method: request.method, route, status: reply.statusCode, ms, ...accessLogFieldsOf(request) }, 'request completed');
    done();
  });
}
