import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { Counter } from 'prom-client';
import { DataSource, type EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { Metrics } from '@meter/http';
import { ADVISORY_LOCKS, DatabaseOutage } from '@meter/persistence';
import { deleteFinishedDeliveries, deleteUnreferencedEvents, type EventCursor } from './delivery-store';

/** Rows one statement deletes at most: each batch is a short transaction of its own, so a large backlog never holds locks for long. */
export const PRUNE_BATCH_SIZE = 1000;
/** Soon after start, so a replica that restarts often still prunes; late enough to stay out of the start's way. */
const FIRST_PASS_DELAY_MS = 30_000;
const PASS_INTERVAL_MS = 3600_000;

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
 * (docs/alerts-and-webhooks.md): every hour, and once soon after start,
 * each integrations replica tries a pass of `pruneWebhookLog` with
 * WEBHOOK_DELIVERY_RETENTION_DAYS; the advisory lock lets one run at a time.
 */
@Injectable()
export class DeliveryRetention implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('webhooks');
  private readonly pruned: Record<'deliveries' | 'events', Counter>;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    @Inject(DataSource) private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(DatabaseOutage) private readonly outage: DatabaseOutage,
    @Inject(Metrics) metrics: Metrics,
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

  onApplicationBootstrap() {
    this.schedule(FIRST_PASS_DELAY_MS);
  }

  async beforeApplicationShutdown() {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number) {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.prune().finally(() => this.schedule(PASS_INTERVAL_MS));
    }, delayMs);
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
