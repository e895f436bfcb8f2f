import { buildOpenApiDocument, serveOpenApi } from '@meter/http';
import { runService } from '@meter/platform';
import { AuthModule } from './auth.module';

void runService({
  name: 'auth',
  port: (config) => config.AUTH_PORT,
  dependencies: ['postgres', 'redis', 'nats'],
  module: (config) => AuthModule.forRoot(config),
  // GET /docs (Swagger UI) and /docs/openapi.json: the document committed as docs/openapi/management.json.
  configure: (app) => serveOpenApi(app, buildOpenApiDocument(app, 'management')),
});
