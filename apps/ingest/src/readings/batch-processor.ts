import { Inject, Injectable, Logger } from '@nestjs/common';
import type { JsMsg } from '@nats-io/jetstream';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import type { BusNames } from '@meter/contracts';
import { BUS } from '@meter/messaging';
import { DatabaseOutage } from '@meter/persistence';
import type { ReadingRow } from '../reading-store/reading-batch';
import { ensurePartitions } from '../reading-store/reading-store';
import { AlertEventsRelay } from '../alerts/alert-events-relay';
import { DeadLetters } from './dead-letters';
import { IngestMetrics } from './ingest-metrics';
import { routeMessage, type DeadLetterCause } from './route-message';
import { isTransientDatabaseError, retryDelayMs } from './transient-error';
import type { AlarmUpdate, DeviceUpdate } from './updates';
import { writeBatch } from './write-batch';

interface Usable {
  msg: JsMsg;
  readings: ReadingRow[];
  device?: DeviceUpdate;
  alarm?: AlarmUpdate;
}

/**
 * One fetched batch: bad messages to dead letters, the rest written in one
 * transaction, acknowledged only after commit. A transient database error
 * naks the batch with backoff; any other error is retried message by
 * message so one poison message cannot hold the others back.
 */
@Injectable()
export class BatchProcessor {
  private readonly logger = new Logger('ingest');
  private readonly knownPartitions = new Set<number>();

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(BUS) private readonly bus: BusNames,
    @Inject(DeadLetters) private readonly deadLetters: DeadLetters,
    @Inject(IngestMetrics) private readonly metrics: IngestMetrics,
    @Inject(DatabaseOutage) private readonly outage: DatabaseOutage,
    @Inject(AlertEventsRelay) private readonly alertRelay: AlertEventsRelay,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async process(batch: readonly JsMsg[]): Promise<void> {
    const usable: Usable[] = [];
    const now = Date.now();
    for (const msg of batch) {
      const subject = this.bus.unprefixed(msg.subject);
      const routed = routeMessage({ subject, data: msg.data, seq: msg.seq, receivedAt: Math.floor(Number(msg.info.timestampNanos) / 1e6) }, now);
      if (routed.kind === 'dead') await this.deadLetter(msg, subject, routed.deadLetterKind, routed.cause, routed.reason);
      else if (routed.kind === 'device') usable.push({ msg, readings: [], device: routed.update });
      else if (routed.kind === 'alarm') usable.push({ msg, readings: [], alarm: routed.update });
      else usable.push({ msg, readings: routed.rows });
    }
    if (usable.length === 0) return;
    try {
      const started = performance.now();
      await this.write(usable);
      for (const item of usable) item.msg.ack();
      this.observeCommitted(usable, (performance.now() - started) / 1000);
    } catch (error) {
      if (isTransientDatabaseError(error)) {
        // Postgres away is logged once per outage (DatabaseOutage), not once per batch.
        if (!this.outage.report(error)) this.logger.warn(`batch of ${usable.length} messages not written, will retry: ${String((error as Error).message)}`);
        this.metrics.batchRetries.inc();
        for (const item of usable) item.msg.nak(retryDelayMs(item.msg.info.deliveryCount));
        return;
      }
      if (usable.length === 1) {
        await this.deadLetter(
          usable[0].msg,
          this.bus.unprefixed(usable[0].msg.subject),
          usable[0].device ? 'devices' : usable[0].alarm ? 'alarms' : 'readings',
          'rejected_by_database',
          `rejected by the database: ${(error as Error).message}`,
        );
        return;
      }
      for (const item of usable) await this.process([item.msg]);
    }
  }

  private observeCommitted(usable: readonly Usable[], seconds: number) {
    const committedAt = Date.now();
    let readings = 0;
    for (const item of usable) {
      readings += item.readings.length;
      this.metrics.storedToCommitSeconds.observe(Math.max(0, committedAt - Number(item.msg.info.timestampNanos) / 1e6) / 1000);
    }
    this.metrics.readings.inc(readings);
    this.metrics.batchSeconds.observe(seconds);
    this.metrics.batchMessages.observe(usable.length);
  }

  private async write(usable: readonly Usable[]) {
    const readings = usable.flatMap((u) => u.readings);
    const devices = usable.flatMap((u) => (u.device ? [u.device] : []));
    const alarms = usable.flatMap((u) => (u.alarm ? [u.alarm] : []));
    try {
      await ensurePartitions(
        (sql, params) => this.dataSource.query(sql, params),
        readings.map((r) => r.readAt),
        this.knownPartitions,
      );
    } catch (error) {
      // Creating a month's partition is about the database, never about the message: always retry.
      throw Object.assign(new Error(`creating a readings partition failed: ${(error as Error).message}`, { cause: error }), { code: '58000' });
    }
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await writeBatch(runner, readings, devices, alarms, { alertRules: this.config.INGEST_ALERT_RULES === 'on', nowMs: this.config.TEST_NOW ?? Date.now() });
      await runner.commitTransaction();
      this.alertRelay.nudge();
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }

  /**
   * Only once JetStream holds the dead letter is the original terminated; if that fails, it comes back later.
   * A bare `+TERM`: servers before 2.10.4 ignore a `+TERM` that carries a reason, so the message stayed
   * pending, came back every ack_wait and held a max_ack_pending slot. The reason is in the dead letter.
   */
  private async deadLetter(msg: JsMsg, subject: string, kind: string, cause: DeadLetterCause, reason: string) {
    try {
      const written = await this.deadLetters.publish({ kind, reason, originalSubject: subject, seq: msg.seq, data: msg.data });
      msg.term();
      if (written) this.metrics.deadLetters.inc({ kind, reason: cause });
    } catch (error) {
      this.logger.warn(`dead letter for seq ${msg.seq} not published, will retry: ${String(error)}`);
      msg.nak(retryDelayMs(msg.info.deliveryCount));
    }
  }
}
