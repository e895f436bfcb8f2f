import { runService } from '@meter/platform';
import { VaultModule } from './vault.module';

void runService({
  name: 'vault',
  port: (config) => config.VAULT_PORT,
  keyRings: ['VAULT_ROOT_KEYRING'],
  dependencies: ['postgres', 'nats'],
  module: (config) => VaultModule.forRoot(config),
});
