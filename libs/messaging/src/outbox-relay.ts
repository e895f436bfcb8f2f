import type { DataSource } from 'typeorm';
import { PgListener } from '@meter/persistence';

/** Where a service keeps its outbox: rows with a `seq` column, published in `seq` order. */
export interface OutboxTable<Row extends { seq: string }> {
  /** Names the relay's own connections: `<name>-outbox-listener`. */
  name: string;
  /** Rows not yet published, oldest first; `$1` is the batch size. */
  selectPending: string;
  /** Marks rows published; `$1` is a bigint[] of their `seq`. */
  markPublished: string;
  /** Age in seconds of the oldest unpublished row as column `age` (null or 0 when none). */
  oldestPendingAge: string;
  /** Advisory lock taken per batch: one relay of all replicas publishes at a time, so rows leave in order. */
  lockId: number;
  /** A NOTIFY channel the service signals on commit; without one the relay polls and is nudged. */
  listenChannel?: string;
  /** Typing only: the shape `selectPending` returns. */
  readonly row?: Row;
}

export interface RelayLogger {
  warn(fields: object, message: string): void;
}

export interface OutboxRelayOptions {
  /** Safety net for a missed notification, in ms. */
  pollMs?: number;
  batchSize?: number;
  /** For LISTEN on the table's channel; without it the relay only polls. */
  databaseUrl?: string;
  log?: RelayLogger;
  /** Called with how many rows one batch published (for metrics). */
  onPublished?: (count: number) => void;
  onFailure?: () => void;
}

const LISTEN_RETRY_MS = 5000;

/**
 * Moves committed rows of an outbox table to the bus. A row is marked
 * published only after the bus acknowledged it; a crash in between leaves
 * it unpublished, so it is sent again on the next pass and the bus drops
 * the copy by its `Nats-Msg-Id`.
 */
export class OutboxRelay<Row extends { seq: string }> {
  private timer?: NodeJS.Timeout;
  private running = false;
  private pass?: Promise<void>;
  private again = false;
  private listener?: PgListener;
  private readonly pollMs: number;
  private readonly batchSize: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly table: OutboxTable<Row>,
    /** Publishes one row and resolves once the bus acknowledged it. */
    private readonly publish: (row: Row) => Promise<void>,
    private readonly options: OutboxRelayOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 1000;
    this.batchSize = options.batchSize ?? 100;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    const { databaseUrl, log } = this.options;
    if (databaseUrl && this.table.listenChannel) {
      // Polling still delivers without it; the listener only makes delivery prompt, so it is re-tried quietly.
      this.listener = new PgListener({
        databaseUrl,
        channel: this.table.listenChannel,
        applicationName: `${this.table.name}-outbox-listener`,
        retryMs: LISTEN_RETRY_MS,
        onNotification: () => this.nudge(),
        onLost: (why) => log?.warn({ error: why }, 'outbox relay: LISTEN unavailable; polling until it is back'),
      });
      await this.listener.start();
    }
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.pass?.catch(() => undefined);
    await this.listener?.stop();
    this.listener = undefined;
  }

  /** Publish what is pending now rather than at the next poll. */
  nudge(): void {
    if (!this.running) return;
    if (this.pass) this.again = true;
    else this.schedule(0);
  }

  /** One pass until nothing is pending (or a publish fails, which rejects). Returns how many were published. */
  async drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const published = await this.publishBatch();
      if (published === 0) return total;
      total += published;
    }
  }

  /** For readiness and metrics: how long the oldest unpublished row has waited. */
  async oldestPendingSeconds(): Promise<number> {
    const [row] = (await this.dataSource.query(this.table.oldestPendingAge)) as { age: number | null }[];
    return Math.max(0, row?.age ?? 0);
  }

  private schedule(delayMs: number) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), delayMs);
  }

  private async run() {
    if (!this.running || this.pass) return;
    this.again = false;
    this.pass = this.drain()
      .then(() => undefined)
      .catch((error: unknown) => {
        this.options.log?.warn({ error: error instanceof Error ? error.message : String(error) }, 'outbox relay: publish failed; will retry');
      })
      .finally(() => {
        this.pass = undefined;
        if (this.running) this.schedule(this.again ? 0 : this.pollMs);
      });
  }

  private async publishBatch(): Promise<number> {
    const outcome = await this.dataSource.transaction(async (manager) => {
      const [{ locked }] = (await manager.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [this.table.lockId])) as { locked: boolean }[];
      if (!locked) return { count: 0, failure: undefined };
      const rows = (await manager.query(this.table.selectPending, [this.batchSize])) as Row[];
      const published: string[] = [];
      let failure: unknown;
      for (const row of rows) {
        try {
          await this.publish(row);
        } catch (error) {
          failure = error;
          break;
        }
        published.push(row.seq);
      }
      // What the bus acknowledged is marked even when a later publish failed.
      if (published.length) await manager.query(this.table.markPublished, [published]);
      return { count: published.length, failure };
    });
    if (outcome.count) this.options.onPublished?.(outcome.count);
    if (outcome.failure !== undefined) {
      this.options.onFailure?.();
      throw outcome.failure;
    }
    return outcome.count;
  }
}
