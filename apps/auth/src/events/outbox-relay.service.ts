import { Inject, Injectable, Logger } from '@nestjs/common';
import type { JetStreamClient } from '@nats-io/jetstream';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import type { BusNames } from '@meter/contracts';
import { Metrics, ReadinessRegistry } from '@meter/http';
import { BUS, JETSTREAM, nestRelayLog, OutboxRelayLifecycle } from '@meter/messaging';
import { DatabaseOutage } from '@meter/persistence';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { jetStreamPublisher } from './jetstream-publisher';
import { OutboxRelay } from './outbox-relay';

/** Runs the outbox relay for the life of the auth process. */
@Injectable()
export class OutboxRelayService extends OutboxRelayLifecycle {
  private readonly logger = new Logger('outbox');
  readonly relay: OutboxRelay;

  constructor(
    @Inject(DataSource) dataSource: DataSource,
    @Inject(JETSTREAM) js: JetStreamClient,
    @Inject(BUS) bus: BusNames,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(Metrics) metrics: Metrics,
    @Inject(ReadinessRegistry) readiness: ReadinessRegistry,
    @Inject(DatabaseOutage) outage: DatabaseOutage,
  ) {
    // Serving goes on while the bus is away (events wait in the table): `outbox` degrades after 30 s, it does not fail.
    super('outbox', readiness);
    const published = new Counter({ name: 'meter_auth_outbox_published_total', help: 'Auth events published to JetStream', registers: [metrics.registry] });
    const failures = new Counter({
      name: 'meter_auth_outbox_publish_failures_total',
      help: 'Relay passes that stopped on a failed publish (retried)',
      registers: [metrics.registry],
    });
    this.exportOldestPending(
      metrics.registry,
      'meter_auth_outbox_oldest_pending_seconds',
      'Age of the oldest auth event not yet acknowledged by JetStream (0 when none)',
    );
    this.relay = new OutboxRelay(dataSource, jetStreamPublisher(js, bus), {
      databaseUrl: config.DATABASE_URL,
      pollMs: config.OUTBOX_POLL_MS,
      log: nestRelayLog(this.logger),
      outage,
      onPublished: (count) => published.inc(count),
      onFailure: () => failures.inc(),
    });
  }
}
