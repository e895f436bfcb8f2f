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
import { ADVISORY_LOCKS } from '@meter/persistence';

const AUDIT_OUTBOX = subjectOutboxTable({ table: 'vault.audit_outbox', name: 'vault-audit', lockId: ADVISORY_LOCKS.vaultAuditOutbox });

/**
 * Publishes committed audit events from the outbox to VAULT_AUDIT, in
 * order, with `Nats-Msg-Id` = event id so a re-publish after a crash is
 * dropped by the stream (the shared relay of `@meter/messaging`).
 */
@Injectable()
export class AuditRelay extends OutboxRelayLifecycle {
  private readonly logger = new Logger('vault-audit');
  protected readonly relay: OutboxRelay<SubjectOutboxRow>;

  constructor(
    @Inject(DataSource) dataSource: DataSource,
    @Inject(JETSTREAM) js: JetStreamClient,
    @Inject(BUS) bus: BusNames,
    @Inject(ReadinessRegistry) readiness: ReadinessRegistry,
  ) {
    // An audit event waiting more than 30 s for the bus makes /readyz report `vault-audit` degraded; the vault keeps serving.
    super('vault-audit', readiness);
    this.relay = new OutboxRelay(dataSource, AUDIT_OUTBOX, jetStreamRowPublisher(js, bus), {
      log: nestRelayLog(this.logger),
    });
  }
}
