import { Inject, Injectable, Logger } from '@nestjs/common';
import type { JetStreamClient } from '@nats-io/jetstream';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import type { BusNames } from '@meter/contracts';
import { Metrics, ReadinessRegistry } from '@meter/http';
import { DatabaseOutage } from '@meter/persistence';
import { jetStreamRowPublisher, OutboxRelay, subjectOutboxTable, type SubjectOutboxRow } from './outbox-relay';
import { nestRelayLog, OutboxRelayLifecycle } from './outbox-relay-lifecycle';
import { BUS, JETSTREAM } from './nats.module';

export interface SubjectOutboxRelaySpec {
  table: string;
  name: string;
  lockId: number;
  /** NOTIFY channel of the outbox's insert trigger: commits of other processes (replicas) wake the relay too. */
  listenChannel?: string;
  /** Metric names: events published, and the age of the oldest the bus has not acknowledged. */
  metrics?: { published: { name: string; help: string }; oldestPending: { name: string; help: string } };
}

/**
 * A relay of a subject outbox (`seq, event_id, subject, payload`) to
 * JetStream, polled every OUTBOX_POLL_MS and nudged after commits, named
 * `name` in its log lines and in /readyz. A service declares its own class
 * from it, so each relay is a provider of its own:
 * `class AuditRelay extends SubjectOutboxRelay({...}) {}`.
 */
export function SubjectOutboxRelay(spec: SubjectOutboxRelaySpec) {
  const table = subjectOutboxTable(spec);

  @Injectable()
  class Relay extends OutboxRelayLifecycle {
    private readonly logger = new Logger(spec.name);
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
      super(spec.name, readiness);
      const published = spec.metrics && new Counter({ ...spec.metrics.published, registers: [metrics.registry] });
      if (spec.metrics) this.exportOldestPending(metrics.registry, spec.metrics.oldestPending.name, spec.metrics.oldestPending.help);
      this.relay = new OutboxRelay(dataSource, table, jetStreamRowPublisher(js, bus), {
        databaseUrl: config.DATABASE_URL,
        pollMs: config.OUTBOX_POLL_MS,
        outage,
        log: nestRelayLog(this.logger),
        onPublished: published && ((count) => published.inc(count)),
      });
    }
  }
  return Relay;
}
