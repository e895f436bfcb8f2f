import type { FastifyInstance } from 'fastify';

/** `application/json` with optional parameters (`; charset=utf-8`). */
const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

/**
 * Bodies are JSON only (docs/management-api.md: other content types are 415). Fastify parses
 * text/plain and Nest form bodies by default, which would let a cross-site HTML form post to
 * /login; such a type is renamed to one no parser takes, so Fastify answers 415 problem+json.
 */
export function acceptJsonBodiesOnly(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    const type = request.headers['content-type'];
    const hasBody = request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
    if (type !== undefined && hasBody && !JSON_MEDIA_TYPE.test(type)) request.headers['content-type'] = 'application/octet-stream';
    done();
  });
}
