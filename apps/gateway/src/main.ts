import { runService } from '@meter/platform';
import { GatewayModule } from './gateway.module';

void runService({
  name: 'gateway',
  port: (config) => config.GATEWAY_PORT,
  dependencies: ['postgres', 'redis', 'nats'],
  module: (config) => GatewayModule.forRoot(config),
});
