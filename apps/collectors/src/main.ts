import { serveOpenApi } from '@meter/http';
import { runService } from '@meter/platform';
import { collectorsApiDocument } from './api/collectors-api';
import { CollectorsModule } from './collectors.module';
import { UPLINK_MAX_BYTES } from './uplinks/uplink-limits';

void runService({
  name: 'collectors',
  port: (config) => config.COLLECTORS_PORT,
  dependencies: ['postgres', 'nats'],
  module: (config) => CollectorsModule.forRoot(config),
  configure: async (app, config) => {
    // Uplinks are decoded from their bytes by the format's decoder, whatever their Content-Type says.
    app.getHttpAdapter().getInstance().removeAllContentTypeParsers();
    app.useBodyParser('*', { bodyLimit: UPLINK_MAX_BYTES }, async (_request: unknown, body: Buffer) => body);
    // GET /docs and /docs/errors: the document committed as docs/openapi/collectors.json, and what each problem type names.
    serveOpenApi(app, await collectorsApiDocument(config));
  },
});
