import { Inject, Injectable, Logger } from '@nestjs/common';
import { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import { Metrics } from '@meter/http';
import { countBacklog, type Backlog } from './backlog-counts';

/**
 * The webhook and export backlogs on /metrics (docs/operations.md), counted
 * when Prometheus scrapes, so every replica reports the shared queue. With
 * Postgres away a scrape keeps the last counts rather than failing.
 */
@Injectable()
export class BacklogMetrics {
  private readonly logger = new Logger('backlog-metrics');
  private pending?: Promise<Backlog | undefined>;

  constructor(
    @Inject(Metrics) metrics: Metrics,
    @Inject(DataSource) private readonly db: DataSource,
  ) {
    const registers = [metrics.registry];
    const backlog = () => this.count();
    new Gauge({
      name: 'meter_webhook_deliveries_pending',
      help: 'Webhook deliveries waiting for an attempt or a retry',
      registers,
      async collect() {
        const counts = await backlog();
        if (counts) this.set(counts.webhookPending);
      },
    });
    new Gauge({
      name: 'meter_webhook_oldest_pending_seconds',
      help: 'Age of the oldest pending webhook delivery (0 when none waits)',
      registers,
      async collect() {
        const counts = await backlog();
        if (counts) this.set(counts.webhookOldestPendingSeconds);
      },
    });
    new Gauge({
      name: 'meter_export_runs_open',
      help: 'Export runs queued for a worker or running',
      labelNames: ['status'] as const,
      registers,
      async collect() {
        const counts = await backlog();
        if (!counts) return;
        this.set({ status: 'queued' }, counts.exportQueued);
        this.set({ status: 'running' }, counts.exportRunning);
      },
    });
  }

  /** One query per scrape, shared by the gauges. */
  private count(): Promise<Backlog | undefined> {
    this.pending ??= countBacklog(this.db)
      .catch((error: unknown) => {
        this.logger.warn(`backlog not counted: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      })
      .finally(() => setImmediate(() => (this.pending = undefined)));
    return this.pending;
  }
}
