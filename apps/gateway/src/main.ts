import { BODY_LIMIT_BYTES, runService } from '@meter/platform';
import { GatewayModule } from './gateway.module';
import { SecurityPipeline } from './security/security-pipeline';

void runService({
  name: 'gateway',
  port: (config) => config.GATEWAY_PORT,
  dependencies: ['postgres', 'redis', 'nats'],
  module: (config) => GatewayModule.forRoot(config),
  // Before Nest registers its routes and body parsers, so the raw-body parser and the hook cover them all.
  configure: (app) => app.get(SecurityPipeline).install(app, BODY_LIMIT_BYTES),
});
