import { runService } from '@meter/platform';
import { AuthModule } from './auth.module';

void runService({
  name: 'auth',
  port: (config) => config.AUTH_PORT,
  dependencies: ['postgres', 'redis', 'nats'],
  module: (config) => AuthModule.forRoot(config),
});
