import { randomUUID } from 'node:crypto';
import { outboundEvent, outboundEventSubject, type ExportErrorCode, type ExportRun, type OutboundEventType } from '@meter/contracts';
import type { Queryable } from '@meter/read-model';
import { runById } from './export-store';

/**
 * A run's state, kept per local day: each day job moves its own day from
 * queued to running to succeeded or failed; the day that leaves none open
 * finishes the run (failed if any day failed, with the first day's error) and
 * appends its export.succeeded or export.failed event to the outbox, in the
 * same transaction. Callers hold the run's row lock (`lockRun`) so two days
 * finishing together see each other.
 */

export interface RunError {
  code: ExportErrorCode;
  message: string;
}

export interface DayContext {
  runId: string;
  integrationId: string;
  orgId: string;
  date: string;
  trigger: string;
}

/** Locks the run's row; undefined when the run is gone (its integration was deleted). */
export async function lockRun(db: Queryable, runId: string): Promise<{ integrationId: string; orgId: string; trigger: string; status: string } | undefined> {
  const rows: { integration_id: string; org_id: string; trigger: string; status: string }[] = await db.query(
    `SELECT integration_id, org_id, trigger, status FROM integrations.export_runs WHERE id = $1 FOR UPDATE`,
    [runId],
  );
  return rows[0] ? { integrationId: rows[0].integration_id, orgId: rows[0].org_id, trigger: rows[0].trigger, status: rows[0].status } : undefined;
}

/** Marks a day (and its run) running for one more attempt; undefined when there is nothing to do (gone, or already finished). */
export async function startDay(db: Queryable, runId: string, date: string): Promise<DayContext | undefined> {
  const run = await lockRun(db, runId);
  if (!run) return undefined;
  // Each UPDATE ... RETURNING is wrapped in a SELECT: TypeORM answers a bare UPDATE with [rows, count].
  const rows: unknown[] = await db.query(
    `WITH started AS (UPDATE integrations.export_run_days SET status = 'running', attempts = attempts + 1
                      WHERE run_id = $1 AND date = $2::date AND status IN ('queued', 'running') RETURNING 1) SELECT * FROM started`,
    [runId, date],
  );
  if (rows.length === 0) return undefined;
  await db.query(`UPDATE integrations.export_runs SET status = 'running', started_at = clock_timestamp() WHERE id = $1 AND status = 'queued'`, [runId]);
  return { runId, integrationId: run.integrationId, orgId: run.orgId, date, trigger: run.trigger };
}

export interface WrittenDay {
  key: string;
  rows: number;
  bytes: number;
  sha256: string;
  /** the snapshot the day was read under (`pg_current_snapshot()` as text) */
  snapshot: string;
  /** epoch ms: the local day's span */
  start: number;
  end: number;
}

/** Records a day written: its file on the run, the day as exported (for restatement), and the run's end if it was the last. */
export async function dayWritten(db: Queryable, day: DayContext, written: WrittenDay): Promise<ExportRun | undefined> {
  await db.query(
    `UPDATE integrations.export_run_days SET status = 'succeeded', error_code = NULL, error_message = NULL WHERE run_id = $1 AND date = $2::date`,
    [day.runId, day.date],
  );
  await db.query(
    `INSERT INTO integrations.export_files (run_id, date, key, rows, bytes, sha256) VALUES ($1, $2::date, $3, $4, $5, $6)
     ON CONFLICT (run_id, date) DO UPDATE SET key = EXCLUDED.key, rows = EXCLUDED.rows, bytes = EXCLUDED.bytes, sha256 = EXCLUDED.sha256`,
    [day.runId, day.date, written.key, written.rows, written.bytes, written.sha256],
  );
  await db.query(
    `INSERT INTO integrations.export_days (integration_id, date, org_id, day_start, day_end, snapshot, run_id, sha256)
     VALUES ($1, $2::date, $3, $4, $5, $6::pg_snapshot, $7, $8)
     ON CONFLICT (integration_id, date) DO UPDATE SET day_start = EXCLUDED.day_start, day_end = EXCLUDED.day_end, snapshot = EXCLUDED.snapshot,
       run_id = EXCLUDED.run_id, sha256 = EXCLUDED.sha256, exported_at = now()`,
    [
      day.integrationId,
      day.date,
      day.orgId,
      new Date(written.start).toISOString(),
      new Date(written.end).toISOString(),
      written.snapshot,
      day.runId,
      written.sha256,
    ],
  );
  return finishRunIfDone(db, day.runId);
}

/** The error the day's last failed attempt recorded, if any. */
export async function lastDayError(db: Queryable, runId: string, date: string): Promise<RunError | undefined> {
  const [last] = (await db.query(`SELECT error_code, error_message FROM integrations.export_run_days WHERE run_id = $1 AND date = $2::date`, [
    runId,
    date,
  ])) as { error_code: string | null; error_message: string | null }[];
  return last?.error_code ? { code: last.error_code as RunError['code'], message: last.error_message ?? '' } : undefined;
}

/** Records a failed attempt; the final one fails the day (and the run, once no day is open). */
export async function dayAttemptFailed(db: Queryable, runId: string, date: string, error: RunError, final: boolean): Promise<ExportRun | undefined> {
  await db.query(
    `UPDATE integrations.export_run_days SET error_code = $3, error_message = $4, status = CASE WHEN $5 THEN 'failed' ELSE status END
     WHERE run_id = $1 AND date = $2::date AND status IN ('queued', 'running')`,
    [runId, date, error.code, error.message, final],
  );
  return final ? finishRunIfDone(db, runId) : undefined;
}

/**
 * Finishes the run when none of its days is open: succeeded, or failed with
 * the error of its first failed day; appends the outbound event. Returns the
 * run as finished, or undefined when it is still going (or already finished).
 */
export async function finishRunIfDone(db: Queryable, runId: string): Promise<ExportRun | undefined> {
  const [counts]: { open: string; failed: string }[] = await db.query(
    `SELECT count(*) FILTER (WHERE status IN ('queued', 'running')) AS open, count(*) FILTER (WHERE status = 'failed') AS failed
     FROM integrations.export_run_days WHERE run_id = $1`,
    [runId],
  );
  if (Number(counts.open) > 0) return undefined;
  const failed = Number(counts.failed) > 0;
  const updated: unknown[] = await db.query(
    `WITH finished AS (UPDATE integrations.export_runs r SET status = $2, finished_at = clock_timestamp(), started_at = coalesce(r.started_at, clock_timestamp()),
       error_code = e.error_code, error_message = e.error_message
     FROM (SELECT (SELECT error_code FROM integrations.export_run_days WHERE run_id = $1 AND status = 'failed' ORDER BY date LIMIT 1) AS error_code,
                  (SELECT error_message FROM integrations.export_run_days WHERE run_id = $1 AND status = 'failed' ORDER BY date LIMIT 1) AS error_message) e
     WHERE r.id = $1 AND r.status IN ('queued', 'running') RETURNING 1) SELECT * FROM finished`,
    [runId, failed ? 'failed' : 'succeeded'],
  );
  if (updated.length === 0) return undefined;
  const run = await runById(db, runId);
  if (!run) return undefined;
  const { integrationId, orgId, ...view } = run;
  await appendEvent(db, failed ? 'export.failed' : 'export.succeeded', orgId, { integration_id: integrationId, ...view });
  return view;
}

/** Writes an outbound event in the caller's transaction; the relay publishes it after commit. */
async function appendEvent(db: Queryable, type: OutboundEventType, orgId: string, data: Record<string, unknown>) {
  const event = outboundEvent.parse({ event_id: randomUUID(), type, org_id: orgId, occurred_at: new Date().toISOString(), data });
  await db.query(`INSERT INTO integrations.export_outbox (event_id, subject, payload) VALUES ($1, $2, $3)`, [
    event.event_id,
    outboundEventSubject(orgId, type),
    JSON.stringify(event),
  ]);
}

/** Runs whose days are all finished but which are not (a process died between its day's commit and the run's): finished now. */
export async function runsLeftOpen(db: Queryable): Promise<string[]> {
  const rows: { id: string }[] = await db.query(
    `SELECT r.id FROM integrations.export_runs r WHERE r.status IN ('queued', 'running')
       AND NOT EXISTS (SELECT 1 FROM integrations.export_run_days d WHERE d.run_id = r.id AND d.status IN ('queued', 'running'))
     LIMIT 100`,
  );
  return rows.map((r) => r.id);
}
