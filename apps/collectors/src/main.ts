import { runService } from '@meter/platform';
import { CollectorsModule } from './collectors.module';

/** The largest uplink body over HTTP; larger ones get 413 problem+json. */
const UPLINK_BODY_LIMIT_BYTES = 1024 * 1024;

void runService({
  name: 'collectors',
  port: (config) => config.COLLECTORS_PORT,
  dependencies: ['postgres', 'nats'],
  module: (config) => CollectorsModule.forRoot(config),
  configure: (app) => {
    // Uplinks are decoded from their bytes by the format's decoder, whatever their Content-Type says.
    app.getHttpAdapter().getInstance().removeAllContentTypeParsers();
    app.useBodyParser('*', { bodyLimit: UPLINK_BODY_LIMIT_BYTES }, async (_request: unknown, body: Buffer) => body);
  },
});
