import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule, type AppConfig } from '@meter/config';
import { platformStreams } from '@meter/contracts';
import { HttpCoreModule } from '@meter/http';
import { NatsModule } from '@meter/messaging';
import { PersistenceModule } from '@meter/persistence';
import { RedisModule } from '@meter/redis';
import { AuditModule } from './audit/audit.module';
import { CollectorCredentialsModule } from './collector-credentials/collector-credentials.module';
import { CredentialsModule } from './credentials/credentials.module';
import { EventsModule } from './events/events.module';
import { ExportsModule } from './exports/exports.module';
import { FleetModule } from './fleet/fleet.module';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { IntegrationsClientModule } from './integrations/integrations-client.module';
import { authStore } from './migrations';
import { SessionsModule } from './sessions/sessions.module';
import { VaultModule } from './vault/vault.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/** The management API: organizations, admin sessions, API credentials, vault routes. */
@Module({})
export class AuthModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AuthModule,
      imports: [
        ConfigModule.forRoot(config),
        HttpCoreModule,
        // Readiness (docs/operations.md): every route needs Postgres. Without Redis only
        // POST /login pauses (503 throttle_unavailable); without NATS only the vault routes
        // (503 vault_unavailable), while events wait in the outbox.
        PersistenceModule.forService('auth', authStore),
        RedisModule.forService('auth', { whenDown: 'degraded' }),
        NatsModule.forService('auth', (bus) => ({ streams: [platformStreams(bus).authEvents], consumers: [] }), { whenDown: 'degraded' }),
        EventsModule,
        AuditModule,
        IdempotencyModule,
        SessionsModule,
        CredentialsModule,
        CollectorCredentialsModule,
        VaultModule,
        IntegrationsClientModule,
        ExportsModule,
        WebhooksModule,
        FleetModule,
      ],
    };
  }
}
