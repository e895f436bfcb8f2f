import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { JetStreamClient } from '@nats-io/jetstream';
import { DataSource } from 'typeorm';
import type { BusNames } from '@meter/contracts';
import { ReadinessRegistry } from '@meter/http';
import { BUS, JETSTREAM, OutboxRelay, type OutboxTable } from '@meter/messaging';
import { DatabaseOutage } from '@meter/persistence';

/** An event older than this still waiting for the bus makes /readyz report `export-events` degraded. */
const STALE_AFTER_SECONDS = 30;

interface ExportOutboxRow {
  seq: string;
  event_id: string;
  subject: string;
  payload: unknown;
}

const EXPORT_OUTBOX: OutboxTable<ExportOutboxRow> = {
  name: 'export-events',
  selectPending: 'SELECT seq, event_id, subject, payload FROM integrations.export_outbox WHERE published_at IS NULL ORDER BY seq LIMIT $1',
  markPublished: 'UPDATE integrations.export_outbox SET published_at = now() WHERE seq = ANY($1::bigint[])',
  oldestPendingAge: 'SELECT extract(epoch FROM now() - min(created_at))::float8 AS age FROM integrations.export_outbox WHERE published_at IS NULL',
  lockId: 74_210_401,
};

/**
 * Publishes export.succeeded and export.failed events from the outbox to
 * OUTBOUND_EVENTS (`events.<org>.<type>`), in order, with `Nats-Msg-Id` =
 * event id, so a re-publish after a crash is dropped by the stream.
 */
@Injectable()
export class ExportOutboxRelay implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('export-events');
  private readonly relay: OutboxRelay<ExportOutboxRow>;

  constructor(
    @Inject(DataSource) dataSource: DataSource,
    @Inject(JETSTREAM) js: JetStreamClient,
    @Inject(BUS) bus: BusNames,
    @Inject(ReadinessRegistry) private readonly readiness: ReadinessRegistry,
    @Inject(DatabaseOutage) outage: DatabaseOutage,
  ) {
    this.relay = new OutboxRelay(
      dataSource,
      EXPORT_OUTBOX,
      async (row) => {
        await js.publish(bus.subject(row.subject), JSON.stringify(row.payload), { msgID: row.event_id, timeout: 5000 });
      },
      { log: { warn: (fields, message) => this.logger.warn(`${message} ${JSON.stringify(fields)}`) }, outage },
    );
  }

  async onApplicationBootstrap() {
    this.readiness.register({
      name: 'export-events',
      whenDown: 'degraded',
      check: async () => ((await this.relay.oldestPendingSeconds()) > STALE_AFTER_SECONDS ? 'degraded' : undefined),
    });
    await this.relay.start();
  }

  async beforeApplicationShutdown() {
    await this.relay.stop();
  }

  /** Publish soon: called after each commit that appended events. */
  nudge(): void {
    this.relay.nudge();
  }
}
