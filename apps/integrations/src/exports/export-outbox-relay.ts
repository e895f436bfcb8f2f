import { Inject, Injectable, Logger } from '@nestjs/common';
import type { JetStreamClient } from '@nats-io/jetstream';
import { DataSource } from 'typeorm';
import type { BusNames } from '@meter/contracts';
import { ReadinessRegistry } from '@meter/http';
import {
  BUS,
  JETSTREAM,
  jetStreamRowPublisher,
  nestRelayLog,
  OutboxRelay,
  OutboxRelayLifecycle,
  subjectOutboxTable,
  type SubjectOutboxRow,
} from '@meter/messaging';
import { ADVISORY_LOCKS, DatabaseOutage } from '@meter/persistence';

const EXPORT_OUTBOX = subjectOutboxTable({ table: 'integrations.export_outbox', name: 'export-events', lockId: ADVISORY_LOCKS.exportOutbox });

/**
 * Publishes export.succeeded and export.failed events from the outbox to
 * OUTBOUND_EVENTS (`events.<org>.<type>`), in order, with `Nats-Msg-Id` =
 * event id, so a re-publish after a crash is dropped by the stream.
 */
@Injectable()
export class ExportOutboxRelay extends OutboxRelayLifecycle {
  private readonly logger = new Logger('export-events');
  protected readonly relay: OutboxRelay<SubjectOutboxRow>;

  constructor(
    @Inject(DataSource) dataSource: DataSource,
    @Inject(JETSTREAM) js: JetStreamClient,
    @Inject(BUS) bus: BusNames,
    @Inject(ReadinessRegistry) readiness: ReadinessRegistry,
    @Inject(DatabaseOutage) outage: DatabaseOutage,
  ) {
    super('export-events', readiness);
    this.relay = new OutboxRelay(dataSource, EXPORT_OUTBOX, jetStreamRowPublisher(js, bus), {
      log: nestRelayLog(this.logger),
      outage,
    });
  }
}
