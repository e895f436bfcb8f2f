import { buildOpenApiDocument, serveOpenApi } from '@meter/http';
import { runService } from '@meter/platform';
import { GatewayModule } from './gateway.module';

void runService({
  name: 'gateway',
  port: (config) => config.GATEWAY_PORT,
  dependencies: ['postgres', 'redis', 'nats'],
  module: (config) => GatewayModule.forRoot(config),
  // GET /docs (Swagger UI) and /docs/openapi.json: the document committed as docs/openapi/gateway.json.
  configure: (app) => serveOpenApi(app, buildOpenApiDocument(app, 'gateway')),
});
