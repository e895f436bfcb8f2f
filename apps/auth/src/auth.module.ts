import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule, type AppConfig } from '@meter/config';
import { platformStreams } from '@meter/contracts';
import { HttpCoreModule } from '@meter/http';
import { NatsModule } from '@meter/messaging';
import { PersistenceModule } from '@meter/persistence';
import { RedisModule } from '@meter/redis';
import { CredentialsModule } from './credentials/credentials.module';
import { EventsModule } from './events/events.module';
import { authStore } from './migrations';
import { SessionsModule } from './sessions/sessions.module';
import { VaultModule } from './vault/vault.module';

/** The management API: organizations, admin sessions, API credentials, vault routes. */
@Module({})
export class AuthModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AuthModule,
      imports: [
        ConfigModule.forRoot(config),
        HttpCoreModule,
        PersistenceModule.forService('auth', authStore),
        RedisModule.forService('auth'),
        NatsModule.forService('auth', (bus) => ({ streams: [platformStreams(bus).authEvents], consumers: [] })),
        EventsModule,
        SessionsModule,
        CredentialsModule,
        VaultModule,
      ],
    };
  }
}
