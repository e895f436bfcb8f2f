import { runService } from '@meter/platform';
import { IntegrationsModule } from './integrations.module';

void runService({
  name: 'integrations',
  port: (config) => config.INTEGRATIONS_PORT,
  dependencies: ['postgres', 'nats'],
  module: (config) => IntegrationsModule.forRoot(config),
});
