import type { JetStreamClient } from '@nats-io/jetstream';
import type { DataSource } from 'typeorm';
import type { BusNames } from '@meter/contracts';
import type { ReadinessCheck } from '@meter/http';
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
  info?(fields: object, message: string): void;
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
  /**
   * The process's record of a Postgres outage (`DatabaseOutage`): a failure
   * it recognises is logged there, once per outage, not by the relay.
   */
  outage?: { report(error: unknown): boolean };
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
  /** A failure was logged and no pass has succeeded since: later failures are not logged again. */
  private failing = false;

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
        onLost: (why, error) => {
          if (!this.options.outage?.report(error)) log?.warn({ error: why }, 'outbox relay: LISTEN unavailable; polling until it is back');
        },
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
      .then(() => {
        if (this.failing) this.options.log?.info?.({}, 'outbox relay: publishing again');
        this.failing = false;
      })
      .catch((error: unknown) => {
        // One line per streak of failures (a pass runs every pollMs), none for an outage logged elsewhere.
        if (this.options.outage?.report(error) || this.failing) return;
        this.failing = true;
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

/** An outbox row that carries its own subject (without the bus prefix), payload and event id. */
export interface SubjectOutboxRow {
  seq: string;
  event_id: string;
  subject: string;
  payload: unknown;
}

/**
 * The outbox table of such rows (`seq`, `event_id`, `subject`, `payload`,
 * `created_at`, `published_at`), as a relay reads it.
 */
export function subjectOutboxTable(spec: { table: string; name: string; lockId: number; listenChannel?: string }): OutboxTable<SubjectOutboxRow> {
  return {
    name: spec.name,
    selectPending: `SELECT seq, event_id, subject, payload FROM ${spec.table} WHERE published_at IS NULL ORDER BY seq LIMIT $1`,
    markPublished: `UPDATE ${spec.table} SET published_at = now() WHERE seq = ANY($1::bigint[])`,
    oldestPendingAge: `SELECT extract(epoch FROM now() - min(created_at))::float8 AS age FROM ${spec.table} WHERE published_at IS NULL`,
    lockId: spec.lockId,
    listenChannel: spec.listenChannel,
  };
}

/** The publisher of such rows: JSON to JetStream under the bus prefix, `Nats-Msg-Id` = event id, resolving on the ack. */
export function jetStreamRowPublisher(js: JetStreamClient, bus: BusNames): (row: SubjectOutboxRow) => Promise<void> {
  return async (row) => {
    await js.publish(bus.subject(row.subject), JSON.stringify(row.payload), { msgID: row.event_id, timeout: 5000 });
  };
}

/**
 * A relay's readiness check: the process keeps serving while the bus refuses
 * its events (they wait in the table), so it is `degraded`, not down, once
 * the oldest pending row has waited more than `staleAfterSeconds`.
 */
export function relayReadiness(name: string, relay: Pick<OutboxRelay<never>, 'oldestPendingSeconds'>, staleAfterSeconds = 30): ReadinessCheck {
  return {
    name,
    whenDown: 'degraded',
    check: async () => ((await relay.oldestPendingSeconds()) > staleAfterSeconds ? 'degraded' : undefined),
  };
}
