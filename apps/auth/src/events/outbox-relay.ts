import { authEvent, type AuthEvent } from '@meter/contracts';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { envelopeOf, EVENTS_CHANNEL, type StoredEventRow } from './event-store';

/** Publishes one event and resolves once the bus acknowledged it. */
export type EventPublisher = (event: AuthEvent) => Promise<void>;

export interface RelayLogger {
  warn(fields: object, message: string): void;
}

export interface OutboxRelayOptions {
  /** Safety net for a missed notification, in ms. */
  pollMs?: number;
  batchSize?: number;
  /** For LISTEN; without it the relay only polls. */
  databaseUrl?: string;
  log?: RelayLogger;
  /** Called with how many events one batch published (for metrics). */
  onPublished?: (count: number) => void;
  onFailure?: () => void;
}

// Only one relay of all replicas publishes at a time, so events leave in log order.
const RELAY_LOCK = 74_210_301;
const LISTEN_RETRY_MS = 5000;

/**
 * Moves events from the auth event table (the outbox) to the bus.
 * An event is marked published only after the bus acknowledged it; a
 * crash in between leaves it unpublished, so it is sent again on the
 * next pass and the bus drops the copy by its `Nats-Msg-Id`.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running = false;
  private pass?: Promise<void>;
  private again = false;
  private listener?: Client;
  private readonly pollMs: number;
  private readonly batchSize: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly publish: EventPublisher,
    private readonly options: OutboxRelayOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 1000;
    this.batchSize = options.batchSize ?? 100;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    if (this.options.databaseUrl) await this.listen(this.options.databaseUrl);
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.pass?.catch(() => undefined);
    const listener = this.listener;
    this.listener = undefined;
    listener?.removeAllListeners('end');
    await listener?.end().catch(() => undefined);
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
      const [{ locked }] = (await manager.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [RELAY_LOCK])) as { locked: boolean }[];
      if (!locked) return { count: 0, failure: undefined };
      const rows = (await manager.query(
        `SELECT seq, event_id, type, aggregate_id, org_id, version, occurred_at, payload
           FROM auth.events WHERE published_at IS NULL ORDER BY seq LIMIT $1`,
        [this.batchSize],
      )) as StoredEventRow[];
      const published: string[] = [];
      let failure: unknown;
      for (const row of rows) {
        try {
          await this.publish(authEvent.parse(envelopeOf(row)));
        } catch (error) {
          failure = error;
          break;
        }
        published.push(row.seq);
      }
      // What the bus acknowledged is marked even when a later publish failed.
      if (published.length) {
        await manager.query('UPDATE auth.events SET published_at = now() WHERE seq = ANY($1::bigint[])', [published]);
      }
      return { count: published.length, failure };
    });
    if (outcome.count) this.options.onPublished?.(outcome.count);
    if (outcome.failure !== undefined) {
      this.options.onFailure?.();
      throw outcome.failure;
    }
    return outcome.count;
  }

  /** Polling still delivers without it; the listener only makes delivery prompt, so it is re-tried quietly. */
  private async listen(databaseUrl: string) {
    if (!this.running) return;
    const client = new Client({ connectionString: databaseUrl, application_name: 'auth-outbox-listener' });
    let lost = false;
    const relisten = (why: string) => {
      if (lost) return;
      lost = true;
      if (this.listener === client) this.listener = undefined;
      void client.end().catch(() => undefined);
      if (!this.running) return;
      this.options.log?.warn({ error: why }, 'outbox relay: LISTEN unavailable; polling until it is back');
      setTimeout(() => void this.listen(databaseUrl), LISTEN_RETRY_MS).unref();
    };
    client.on('notification', () => this.nudge());
    client.on('error', (error) => relisten(error.message));
    client.on('end', () => relisten('connection ended'));
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
      if (!this.running) {
        lost = true;
        await client.end();
        return;
      }
      this.listener = client;
    } catch (error) {
      relisten((error as Error).message);
    }
  }
}
