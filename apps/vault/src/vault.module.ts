import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule, type AppConfig } from '@meter/config';
import { platformStreams } from '@meter/contracts';
import { HttpCoreModule } from '@meter/http';
import { NatsModule } from '@meter/messaging';
import { PersistenceModule } from '@meter/persistence';
import { EntriesModule } from './entries/entries.module';
import { vaultStore } from './migrations';

/** Sealed storage credentials, reachable over NATS only; HTTP serves probes and metrics. */
@Module({})
export class VaultModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: VaultModule,
      imports: [
        ConfigModule.forRoot(config),
        HttpCoreModule,
        PersistenceModule.forService('vault', vaultStore),
        NatsModule.forService('vault', (bus) => ({ streams: [platformStreams(bus).vaultAudit], consumers: [] })),
        EntriesModule,
      ],
    };
  }
}
