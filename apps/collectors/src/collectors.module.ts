import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule, type AppConfig } from '@meter/config';
import { platformStreams } from '@meter/contracts';
import { HttpCoreModule } from '@meter/http';
import { NatsModule } from '@meter/messaging';
import { PersistenceModule } from '@meter/persistence';
import { CollectorAuthenticator } from './credentials/collector-authenticator';
import { RevocationFeed } from './credentials/revocation-feed';
import { CollectController } from './http/collect.controller';
import { collectorsStore } from './migrations';
import { MqttServer } from './mqtt/mqtt-server';
import { BusPublisher } from './uplinks/bus-publisher';
import { CollectorMetrics } from './uplinks/collector-metrics';
import { DeviceDirectory } from './uplinks/device-directory';
import { UnmatchedRecorder } from './uplinks/unmatched-recorder';
import { UplinkService } from './uplinks/uplink-service';

/**
 * Readings from the collectors utilities run (docs/collectors.md): MQTT and
 * HTTP uplinks decoded into section 3's messages on JetStream. Readiness: it
 * serves nothing without NATS (nothing could be stored) or Postgres (radio
 * ids could not be matched).
 */
@Module({})
export class CollectorsModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: CollectorsModule,
      imports: [
        ConfigModule.forRoot(config),
        HttpCoreModule,
        PersistenceModule.forService('collectors', collectorsStore),
        // The streams it publishes to; ingest declares the same (idempotently) and consumes them.
        NatsModule.forService('collectors', (bus) => {
          const streams = platformStreams(bus);
          return { streams: [streams.readings, streams.deadLetters], consumers: [] };
        }),
      ],
      controllers: [CollectController],
      providers: [CollectorMetrics, BusPublisher, DeviceDirectory, UnmatchedRecorder, UplinkService, CollectorAuthenticator, RevocationFeed, MqttServer],
    };
  }
}
