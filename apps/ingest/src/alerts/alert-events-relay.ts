import { Inject, Injectable, Logger } from '@nestjs/common';
import type { JetStreamClient } from '@nats-io/jetstream';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import type { BusNames } from '@meter/contracts';
import { Metrics, ReadinessRegistry } from '@meter/http';
import { BUS, JETSTREAM, jetStreamRowPublisher, nestRelayLog, OutboxRelay, OutboxRelayLifecycle, type SubjectOutboxRow } from '@meter/messaging';
import { DatabaseOutage } from '@meter/persistence';
import { ALERT_OUTBOX } from './alert-outbox';

/**
 * Publishes the alert events that batches and the silence check committed to
 * the outbox (`ingest.alert_outbox`) to OUTBOUND_EVENTS, in order, with
 * `Nats-Msg-Id` = event id, marking each only after JetStream acknowledged
 * it: a crash in between publishes it again and the stream drops the copy.
 * One relay of all replicas publishes at a time; every commit wakes them
 * (NOTIFY from the outbox's trigger), a poll covers a lost notification.
 */
@Injectable()
export class AlertEventsRelay extends OutboxRelayLifecycle {
  private readonly logger = new Logger('alert-events');
  protected readonly relay: OutboxRelay<SubjectOutboxRow>;

  constructor(
    @Inject(DataSource) dataSource: DataSource,
    @Inject(JETSTREAM) js: JetStreamClient,
    @Inject(BUS) bus: BusNames,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(Metrics) metrics: Metrics,
    @Inject(ReadinessRegistry) readiness: ReadinessRegistry,
    @Inject(DatabaseOutage) outage: DatabaseOutage,
  ) {
    // An alert event waiting more than 30 s for the bus makes /readyz report `alert-events` degraded; ingest keeps writing.
    super('alert-events', readiness);
    const published = new Counter({
      name: 'meter_ingest_alert_events_published_total',
      help: 'Alert events published to OUTBOUND_EVENTS',
      registers: [metrics.registry],
    });
    this.exportOldestPending(
      metrics.registry,
      'meter_ingest_alert_outbox_oldest_pending_seconds',
      'Age of the oldest alert event not yet acknowledged by JetStream (0 when none)',
    );
    this.relay = new OutboxRelay(dataSource, ALERT_OUTBOX, jetStreamRowPublisher(js, bus), {
      databaseUrl: config.DATABASE_URL,
      pollMs: config.OUTBOX_POLL_MS,
      outage,
      log: nestRelayLog(this.logger),
      onPublished: (count) => published.inc(count),
    });
  }
}
