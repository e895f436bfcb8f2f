import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule, type AppConfig } from '@meter/config';
import { platformStreams } from '@meter/contracts';
import { HttpCoreModule } from '@meter/http';
import { NatsModule } from '@meter/messaging';
import { PeriodicWorkModule, PersistenceModule } from '@meter/persistence';
import { BacklogMetrics } from './backlog/backlog-metrics';
import { ExportsModule } from './exports/exports.module';
import { integrationsStore } from './migrations';
import { EXPORT_JOBS_SCHEMA } from './migrations/1764100000002-export-jobs';
import { IntegrationsRpcModule } from './rpc/integrations-rpc.module';
import { WebhooksModule } from './webhooks/webhooks.module';

/**
 * The outbound side of the platform: nightly batch exports to the
 * organizations' own storage and webhook deliveries. It is the vault's
 * integration worker (it alone may open vault entries) and answers the
 * management API's integration and webhook routes over NATS; HTTP serves
 * probes and metrics only.
 */
@Module({})
export class IntegrationsModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: IntegrationsModule,
      imports: [
        ConfigModule.forRoot(config),
        HttpCoreModule,
        PersistenceModule.forService('integrations', integrationsStore),
        // The exports' day queue (ExportJobs) maintains the schema; this instance only runs the periodic jobs.
        PeriodicWorkModule.forService({ schema: EXPORT_JOBS_SCHEMA, applicationName: 'integrations-periodic', supervise: false }),
        NatsModule.forService('integrations', (bus) => ({ streams: [platformStreams(bus).outboundEvents], consumers: [] })),
        IntegrationsRpcModule,
        ExportsModule,
        WebhooksModule,
      ],
      providers: [BacklogMetrics],
    };
  }
}
