import { serveOpenApi } from '@meter/http';
import { BODY_LIMIT_BYTES, runService } from '@meter/platform';
import { gatewayApiDocument } from './api/gateway-api';
import { GatewayModule } from './gateway.module';
import { SecurityPipeline } from './security/security-pipeline';

void runService({
  name: 'gateway',
  port: (config) => config.GATEWAY_PORT,
  keyRings: ['CREDENTIAL_KEYRING'],
  dependencies: ['postgres', 'redis', 'nats'],
  module: (config) => GatewayModule.forRoot(config),
  configure: async (app, config) => {
    // Before Nest registers its routes and body parsers, so the raw-body parser and the hook cover them all.
    app.get(SecurityPipeline).install(app, BODY_LIMIT_BYTES);
    // GET /docs (Swagger UI) and /docs/openapi.json: the document committed as docs/openapi/gateway.json.
    serveOpenApi(app, await gatewayApiDocument(config));
  },
});
