import type { Queryable } from '@meter/read-model';

/** What waits in the integrations process, as operators watch it. */
export interface Backlog {
  /** Webhook deliveries not yet delivered nor given up, and the age of the oldest (0 when none). */
  webhookPending: number;
  webhookOldestPendingSeconds: number;
  /** Export runs waiting for a worker, and being worked on. */
  exportQueued: number;
  exportRunning: number;
}

/** One round trip, on the partial indexes of pending deliveries and open runs. */
export async function countBacklog(db: Queryable): Promise<Backlog> {
  const [row] = (await db.query(
    `SELECT (SELECT count(*) FROM integrations.webhook_deliveries WHERE status = 'pending')::int AS webhook_pending,
            coalesce((SELECT extract(epoch FROM now() - min(created_at)) FROM integrations.webhook_deliveries WHERE status = 'pending'), 0)::float8 AS oldest,
            (SELECT count(*) FROM integrations.export_runs WHERE status = 'queued')::int AS export_queued,
            (SELECT count(*) FROM integrations.export_runs WHERE status = 'running')::int AS export_running`,
  )) as { webhook_pending: number; oldest: number; export_queued: number; export_running: number }[];
  return { webhookPending: row.webhook_pending, webhookOldestPendingSeconds: row.oldest, exportQueued: row.export_queued, exportRunning: row.export_running };
}
