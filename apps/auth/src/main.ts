import { buildOpenApiDocument, serveOpenApi } from '@meter/http';
import { runService } from '@meter/platform';
import { AuthModule } from './auth.module';

/** `application/json` with optional parameters (`; charset=utf-8`). */
const JSON_MEDIA_TYPE = /^application\/json\s*(;|$)/i;

void runService({
  name: 'auth',
  port: (config) => config.AUTH_PORT,
  keyRings: ['CREDENTIAL_KEYRING'],
  dependencies: ['postgres', 'redis', 'nats'],
  module: (config) => AuthModule.forRoot(config),
  configure: (app) => {
    // Bodies are JSON only (docs/management-api.md: other content types are 415). Fastify parses
    // text/plain and Nest form bodies by default, which would let a cross-site HTML form post to
    // /login; such a type is renamed to one no parser takes, so Fastify answers 415 problem+json.
    app.getHttpAdapter().getInstance().addHook('onRequest', (request, _reply, done) => {
      const type = request.headers['content-type'];
      const hasBody = request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
      if (type !== undefined && hasBody && !JSON_MEDIA_TYPE.test(type)) request.headers['content-type'] = 'application/octet-stream';
      done();
    });
    // GET /docs (Swagger UI) and /docs/openapi.json: the document committed as docs/openapi/management.json.
    serveOpenApi(app, buildOpenApiDocument(app, 'management'));
  },
});
