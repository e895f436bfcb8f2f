import { Inject, Injectable, Logger } from '@nestjs/common';
import type { JetStreamClient } from '@nats-io/jetstream';
import { DataSource } from 'typeorm';
import type { BusNames } from '@meter/contracts';
import { ReadinessRegistry } from '@meter/http';
import { DatabaseOutage } from '@meter/persistence';
import { jetStreamRowPublisher, OutboxRelay, subjectOutboxTable, type SubjectOutboxRow } from './outbox-relay';
import { nestRelayLog, OutboxRelayLifecycle } from './outbox-relay-lifecycle';
import { BUS, JETSTREAM } from './nats.module';

/**
 * A relay of a subject outbox (`seq, event_id, subject, payload`) to
 * JetStream, polled and nudged after commits, named `name` in its log lines
 * and in /readyz. A service declares its own class from it, so each relay is
 * a provider of its own: `class AuditRelay extends SubjectOutboxRelay({...}) {}`.
 */
export function SubjectOutboxRelay(spec: { table: string; name: string; lockId: number }) {
  const table = subjectOutboxTable(spec);

  @Injectable()
  class Relay extends OutboxRelayLifecycle {
    private readonly logger = new Logger(spec.name);
    protected readonly relay: OutboxRelay<SubjectOutboxRow>;

    constructor(
      @Inject(DataSource) dataSource: DataSource,
      @Inject(JETSTREAM) js: JetStreamClient,
      @Inject(BUS) bus: BusNames,
      @Inject(ReadinessRegistry) readiness: ReadinessRegistry,
      @Inject(DatabaseOutage) outage: DatabaseOutage,
    ) {
      super(spec.name, readiness);
      this.relay = new OutboxRelay(dataSource, table, jetStreamRowPublisher(js, bus), { log: nestRelayLog(this.logger), outage });
    }
  }
  return Relay;
}
