import { serveOpenApi } from '@meter/http';
import { runService } from '@meter/platform';
import { managementApiDocument } from './api/management-api';
import { AuthModule } from './auth.module';
import { acceptJsonBodiesOnly } from './common/json-only-bodies';
import { serveConsole } from './console/serve-console';

void runService({
  name: 'auth',
  port: (config) => config.AUTH_PORT,
  keyRings: ['CREDENTIAL_KEYRING'],
  dependencies: ['postgres', 'redis', 'nats'],
  module: (config) => AuthModule.forRoot(config),
  configure: async (app, config) => {
    acceptJsonBodiesOnly(app.getHttpAdapter().getInstance());
    // GET /docs (Swagger UI) and /docs/openapi.json: the document committed as docs/openapi/management.json.
    serveOpenApi(app, await managementApiDocument(config));
    // GET /console/: the admin console (docs/console.md), when `npm run build` built it.
    await serveConsole(app.getHttpAdapter().getInstance());
  },
});
