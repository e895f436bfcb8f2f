import { Inject, Injectable, Logger } from '@nestjs/common';
import type { JetStreamClient } from '@nats-io/jetstream';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import type { BusNames } from '@meter/contracts';
import { Metrics, ReadinessRegistry } from '@meter/http';
import { DatabaseOutage } from '@meter/persistence';
import { jetStreamRowPublisher, OutboxRelay, subjectOutboxTable, type OutboxTable } from './outbox-relay';
import { nestRelayLog, OutboxRelayLifecycle } from './outbox-relay-lifecycle';
import { BUS, JETSTREAM } from './nats.module';

interface MetricName {
  name: string;
  help: string;
}

/** What a relay counts: events published, the age of the oldest the bus has not acknowledged, failed passes. */
export interface RelayMetrics {
  published: MetricName;
  oldestPending: MetricName;
  failures?: MetricName;
}

/**
 * An outbox relay as a provider: the outbox table, how a row goes to
 * JetStream, polled every OUTBOX_POLL_MS (and woken by the table's NOTIFY
 * channel, if it has one) and nudged after commits, named `name` in its log
 * lines and in /readyz. A service declares its own class from it, so each
 * relay is a provider of its own: `class AuditRelay extends OutboxRelayProvider({...}) {}`.
 */
export function OutboxRelayProvider<Row extends { seq: string }>(spec: {
  name: string;
  table: OutboxTable<Row>;
  publisher: (js: JetStreamClient, bus: BusNames) => (row: Row) => Promise<void>;
  metrics?: RelayMetrics;
}) {
  @Injectable()
  class Relay extends OutboxRelayLifecycle {
    private readonly logger = new Logger(spec.name);
    protected readonly relay: OutboxRelay<Row>;

    constructor(
      @Inject(DataSource) dataSource: DataSource,
      @Inject(JETSTREAM) js: JetStreamClient,
      @Inject(BUS) bus: BusNames,
      @Inject(APP_CONFIG) config: AppConfig,
      @Inject(Metrics) metrics: Metrics,
      @Inject(ReadinessRegistry) readiness: ReadinessRegistry,
      @Inject(DatabaseOutage) outage: DatabaseOutage,
    ) {
      super(spec.name, readiness);
      const counter = (metric?: MetricName) => metric && new Counter({ ...metric, registers: [metrics.registry] });
      const [published, failures] = [counter(spec.metrics?.published), counter(spec.metrics?.failures)];
      if (spec.metrics) this.exportOldestPending(metrics.registry, spec.metrics.oldestPending.name, spec.metrics.oldestPending.help);
      this.relay = new OutboxRelay(dataSource, spec.table, spec.publisher(js, bus), {
        databaseUrl: config.DATABASE_URL,
        pollMs: config.OUTBOX_POLL_MS,
        outage,
        log: nestRelayLog(this.logger),
        onPublished: published && ((count) => published.inc(count)),
        onFailure: failures && (() => failures.inc()),
      });
    }
  }
  return Relay;
}

/** The relay of a subject outbox (`seq, event_id, subject, payload`): each row's payload to its subject. */
export function SubjectOutboxRelay(spec: { table: string; name: string; lockId: number; listenChannel?: string; metrics?: RelayMetrics }) {
  return OutboxRelayProvider({ name: spec.name, table: subjectOutboxTable(spec), publisher: jetStreamRowPublisher, metrics: spec.metrics });
}
