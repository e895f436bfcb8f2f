import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { Counter } from 'prom-client';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { Metrics } from '@meter/http';
import { ADVISORY_LOCKS, DatabaseOutage, PeriodicWork } from '@meter/persistence';
import { WEBHOOK_RETENTION_QUEUE } from '../migrations/1764900000101-webhook-retention-queue';
import { deleteFinishedDeliveries, deleteUnreferencedEvents, type EventCursor } from './delivery-store';

/** Rows one statement deletes at most: each batch is a short transaction of its own, so a large backlog never holds locks for long. */
export const PRUNE_BATCH_SIZE = 1000;
/** Soon after a start that finds no pass queued; late enough to stay out of the start's way. */
const FIRST_PASS_DELAY_SECONDS = 30;
const PASS_INTERVAL_SECONDS = 3600;
/** A pass still running this long is taken for dead and the next may start; one still alive only meets it at the advisory lock. */
const PASS_EXPIRE_SECONDS = 300;

export interface PruneOptions {
  retentionDays: number;
  batchSize?: number;
  /** Asked before each batch: a stopping process ends the pass there. */
  stopped?: () => boolean;
  /** Told of each committed batch, so what was deleted is counted even if a later batch fails. */
  onDeleted?: (table: 'deliveries' | 'events', rows: number) => void;
}

export interface PruneResult {
  deliveries: number;
  events: number;
  /** False when the pass stopped early: the process is stopping, or another replica is pruning. */
  finished: boolean;
}

/** Runs one batch under the retention's advisory lock; null when another replica holds it. */
async function underLock<T>(db: DataSource, work: (m: EntityManager) => Promise<T>): Promise<T | null> {
  return db.transaction(async (m) => {
    const [{ locked }]: { locked: boolean }[] = await m.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [ADVISORY_LOCKS.webhookRetention]);
    return locked ? work(m) : null;
  });
}

/**
 * One pass of the delivery log's retention: deletes the delivered and
 * failed deliveries whose last attempt is older than `retentionDays`, then
 * the events older than that which no delivery refers to any more. Pending
 * deliveries, and the events they need, are kept however old. Batch by
 * batch, each under an advisory lock only one replica gets.
 */
export async function pruneWebhookLog(db: DataSource, options: PruneOptions): Promise<PruneResult> {
  const { retentionDays: days, batchSize = PRUNE_BATCH_SIZE, stopped = () => false, onDeleted } = options;
  const result: PruneResult = { deliveries: 0, events: 0, finished: false };
  for (;;) {
    if (stopped()) return result;
    const n = await underLock(db, (m) => deleteFinishedDeliveries(m, days, batchSize));
    if (n === null) return result;
    result.deliveries += n;
    if (n > 0) onDeleted?.('deliveries', n);
    if (n < batchSize) break;
  }
  let cursor: EventCursor = { receivedAt: '-infinity', eventId: '00000000-0000-0000-0000-000000000000' };
  for (;;) {
    if (stopped()) return result;
    const batch = await underLock(db, (m) => deleteUnreferencedEvents(m, days, batchSize, cursor));
    if (batch === null) return result;
    result.events += batch.deleted;
    if (batch.deleted > 0) onDeleted?.('events', batch.deleted);
    if (batch.scanned < batchSize) break;
    cursor = batch.next;
  }
  result.finished = true;
  return result;
}

/**
 * Keeps the webhook delivery log from growing forever
 * (docs/alerts-and-webhooks.md): a pass of `pruneWebhookLog` with
 * WEBHOOK_DELIVERY_RETENTION_DAYS every hour, a periodic pg-boss job that
 * one replica at a time runs (PeriodicJobs); the advisory lock still guards
 * each batch.
 */
@Injectable()
export class DeliveryRetention implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('webhooks');
  private readonly pruned: Record<'deliveries' | 'events', Counter>;
  private stopped = false;

  constructor(
    @Inject(DataSource) private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DatabaseOutage) private readonly outage: DatabaseOutage,
    @Inject(Metrics) metrics: Metrics,
    @Inject(PeriodicWork) private readonly periodic: PeriodicWork,
  ) {
    const registers = [metrics.registry];
    this.pruned = {
      deliveries: new Counter({
        name: 'meter_integrations_webhook_deliveries_pruned_total',
        help: 'Delivered and failed webhook deliveries deleted after WEBHOOK_DELIVERY_RETENTION_DAYS',
        registers,
      }),
      events: new Counter({
        name: 'meter_integrations_webhook_events_pruned_total',
        help: 'Webhook events deleted once no delivery referred to them and they were older than WEBHOOK_DELIVERY_RETENTION_DAYS',
        registers,
      }),
    };
  }

  onModuleInit() {
    this.periodic.register({
      queue: WEBHOOK_RETENTION_QUEUE,
      everySeconds: PASS_INTERVAL_SECONDS,
      firstAfterSeconds: FIRST_PASS_DELAY_SECONDS,
      expireInSeconds: PASS_EXPIRE_SECONDS,
      run: () => this.prune(),
    });
  }

  /** A pass under way ends after its batch; PeriodicWork waits for it. */
  beforeApplicationShutdown() {
    this.stopped = true;
  }

  private async prune() {
    const days = this.config.WEBHOOK_DELIVERY_RETENTION_DAYS;
    try {
      const { deliveries, events } = await pruneWebhookLog(this.db, {
        retentionDays: days,
        stopped: () => this.stopped,
        onDeleted: (table, rows) => this.pruned[table].inc(rows),
      });
      if (deliveries + events > 0) this.logger.log(`deleted ${deliveries} webhook deliveries and ${events} events older than ${days} days`);
    } catch (error) {
      if (!this.outage.report(error))
        this.logger.warn(`pruning the webhook delivery log failed, will retry: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
