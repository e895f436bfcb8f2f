import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { JetStreamClient } from '@nats-io/jetstream';
import { DataSource } from 'typeorm';
import type { BusNames } from '@meter/contracts';
import { ReadinessRegistry } from '@meter/http';
import { BUS, JETSTREAM } from '@meter/messaging';

const BATCH = 100;
const POLL_MS = 1000;
/** An audit event older than this still waiting for the bus makes /readyz report `vault-audit` degraded. */
const STALE_AFTER_SECONDS = 30;

/**
 * Publishes committed audit events from the outbox to VAULT_AUDIT, in
 * order, with `Nats-Msg-Id` = event id so a re-publish after a crash is
 * dropped by the stream. Rows are locked while publishing, so replicas
 * never publish the same batch at once; a failed publish leaves the rows
 * for the next round.
 */
@Injectable()
export class AuditRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('vault-audit');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = false;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(JETSTREAM) private readonly js: JetStreamClient,
    @Inject(BUS) private readonly bus: BusNames,
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
  ) {}

  onApplicationBootstrap() {
    // The vault keeps serving while the bus is away (events wait in the table), so this degrades rather than fails.
    this.readiness.register({
      name: 'vault-audit',
      check: async () => ((await this.oldestPendingSeconds()) > STALE_AFTER_SECONDS ? 'degraded' : undefined),
    });
    this.timer = setInterval(() => this.nudge(), POLL_MS);
    this.nudge();
  }

  /** Before NATS drains, so an in-flight publish finishes or stays pending for the next start. */
  async beforeApplicationShutdown() {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** Publish soon: after a commit, and on every poll. */
  nudge(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((error: unknown) => this.logger.warn(`audit relay will retry: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.nudge();
        }
      });
  }

  private async oldestPendingSeconds(): Promise<number> {
    const rows: { age: number | null }[] = await this.dataSource.query(
      `SELECT extract(epoch FROM now() - min(created_at))::float8 AS age FROM vault.audit_outbox WHERE published_at IS NULL`,
    );
    return rows[0]?.age ?? 0;
  }

  private async drain(): Promise<void> {
    while (!this.stopped && (await this.publishBatch()) === BATCH);
  }

  private publishBatch(): Promise<number> {
    return this.dataSource.transaction(async (sql) => {
      const rows: { seq: string; event_id: string; subject: string; payload: unknown }[] = await sql.query(
        `SELECT seq, event_id, subject, payload FROM vault.audit_outbox
         WHERE published_at IS NULL ORDER BY seq LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
      );
      for (const row of rows) {
        await this.js.publish(this.bus.subject(row.subject), JSON.stringify(row.payload), { msgID: row.event_id, timeout: 5000 });
      }
      if (rows.length > 0) {
        await sql.query(`UPDATE vault.audit_outbox SET published_at = now() WHERE seq = ANY($1::bigint[])`, [rows.map((r) => r.seq)]);
      }
      return rows.length;
    });
  }
}
