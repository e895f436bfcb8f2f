import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule, type AppConfig } from '@meter/config';
import { platformStreams } from '@meter/contracts';
import { HttpCoreModule } from '@meter/http';
import { NatsModule } from '@meter/messaging';
import { PersistenceModule } from '@meter/persistence';
import { RedisModule } from '@meter/redis';
import { AlertsModule } from './alerts/alerts.module';
import { ConsumptionModule } from './consumption/consumption.module';
import { DashboardModule } from './dashboard/dashboard.module';
import { DevicesModule } from './devices/devices.module';
import { HistoryModule } from './history/history.module';
import { ProjectionModule } from './projection/projection.module';
import { ReadModelModule } from './read-model/read-model.module';
import { SecurityModule } from './security/security.module';

/** The signed consumption API: reads the ingest read model, limits in Redis, credentials from auth events. */
@Module({})
export class GatewayModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: GatewayModule,
      imports: [
        ConfigModule.forRoot(config),
        HttpCoreModule,
        // The gateway only reads the read model, through prepared statements (ReadModel):
        // generic plans skip planning over the month partitions on every request.
        // Every API route reads it, so the gateway is not ready without Postgres.
        PersistenceModule.forService('gateway', { schema: 'ingest', connectionOptions: '-c plan_cache_mode=force_generic_plan' }),
        // One rate-limit script call (EVALSHA) per credential and event-loop turn; without
        // Redis each process limits in-process (degraded, still serving).
        RedisModule.forService('gateway', { whenDown: 'degraded' }),
        // Without NATS the credential view serves what it holds (degraded); it is not
        // ready before it has caught up at start (the credentials check).
        NatsModule.forService('gateway', (bus) => ({ streams: [platformStreams(bus).authEvents], consumers: [] }), { whenDown: 'degraded' }),
        SecurityModule,
        ReadModelModule,
        DevicesModule,
        DashboardModule,
        HistoryModule,
        ConsumptionModule,
        ProjectionModule,
        AlertsModule,
      ],
    };
  }
}
