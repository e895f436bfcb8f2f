import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule, type AppConfig } from '@meter/config';
import { platformStreams } from '@meter/contracts';
import { HttpCoreModule } from '@meter/http';
import { NatsModule } from '@meter/messaging';
import { PeriodicWorkModule, PersistenceModule } from '@meter/persistence';
import { ingestStore } from './migrations';
import { INGEST_JOBS_SCHEMA } from './migrations/ingest-jobs.migration';
import { readingsConsumer } from './readings/readings-consumer';
import { ReadingsModule } from './readings/readings.module';

/** Readings, device events and alarms from JetStream into the Postgres read model; alert events out to OUTBOUND_EVENTS. */
@Module({})
export class IngestModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: IngestModule,
      imports: [
        ConfigModule.forRoot(config),
        HttpCoreModule,
        PersistenceModule.forService('ingest', ingestStore),
        PeriodicWorkModule.forService({ schema: INGEST_JOBS_SCHEMA, applicationName: 'ingest-periodic', supervise: true }),
        NatsModule.forService('ingest', (bus) => {
          const streams = platformStreams(bus);
          return {
            streams: [streams.readings, streams.deadLetters, streams.outboundEvents],
            consumers: [readingsConsumer(bus, config.INGEST_MAX_ACK_PENDING, config.INGEST_ACK_WAIT_SECONDS)],
          };
        }),
        ReadingsModule,
      ],
    };
  }
}
