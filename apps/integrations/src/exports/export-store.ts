import {
  isUuid,
  type ExportErrorCode,
  type ExportFormat,
  type ExportRun,
  type ExportStorageType,
  type Integration,
  type IntegrationStatus,
  type RunStatus,
  type RunTrigger,
} from '@meter/contracts';
import type { Queryable } from '@meter/read-model';

/**
 * The SQL of the batch exports' own tables (schema `integrations`): the
 * integrations, their runs, run days and files, and the days exported. Every
 * statement is scoped by organization where the caller names one.
 */

export interface IntegrationRecord {
  id: string;
  orgId: string;
  namespace: string;
  storageType: ExportStorageType;
  bucket: string;
  prefix: string;
  format: ExportFormat;
  timeZone: string;
  scheduleAt: string;
  status: IntegrationStatus;
  createdAt: Date;
  /** epoch ms */
  nextRunAt: number;
  lastScheduledDate: string | null;
}

interface IntegrationRow {
  id: string;
  org_id: string;
  namespace: string;
  storage_type: ExportStorageType;
  bucket: string;
  prefix: string;
  format: ExportFormat;
  time_zone: string;
  schedule_at: string;
  status: IntegrationStatus;
  created_at: Date;
  next_run_at: Date;
  last_scheduled_date: string | null;
}

const INTEGRATION_COLUMNS = `id, org_id, namespace, storage_type, bucket, prefix, format, time_zone, schedule_at, status, created_at, next_run_at,
  to_char(last_scheduled_date, 'YYYY-MM-DD') AS last_scheduled_date`;

const toIntegration = (r: IntegrationRow): IntegrationRecord => ({
  id: r.id,
  orgId: r.org_id,
  namespace: r.namespace,
  storageType: r.storage_type,
  bucket: r.bucket,
  prefix: r.prefix,
  format: r.format,
  timeZone: r.time_zone,
  scheduleAt: r.schedule_at,
  status: r.status,
  createdAt: r.created_at,
  nextRunAt: r.next_run_at.getTime(),
  lastScheduledDate: r.last_scheduled_date,
});

export async function insertIntegration(db: Queryable, record: IntegrationRecord): Promise<void> {
  await db.query(
    `INSERT INTO integrations.export_integrations (id, org_id, namespace, storage_type, bucket, prefix, format, time_zone, schedule_at, status, next_run_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      record.id,
      record.orgId,
      record.namespace,
      record.storageType,
      record.bucket,
      record.prefix,
      record.format,
      record.timeZone,
      record.scheduleAt,
      record.status,
      new Date(record.nextRunAt).toISOString(),
      record.createdAt.toISOString(),
    ],
  );
}

export async function findIntegration(db: Queryable, orgId: string, id: string, lock = false): Promise<IntegrationRecord | undefined> {
  if (!isUuid(id)) return undefined;
  const rows: IntegrationRow[] = await db.query(
    `SELECT ${INTEGRATION_COLUMNS} FROM integrations.export_integrations WHERE org_id = $1 AND id = $2 ${lock ? 'FOR UPDATE' : ''}`,
    [orgId, id],
  );
  return rows[0] ? toIntegration(rows[0]) : undefined;
}

export async function listIntegrations(db: Queryable, orgId: string): Promise<IntegrationRecord[]> {
  const rows: IntegrationRow[] = await db.query(
    `SELECT ${INTEGRATION_COLUMNS} FROM integrations.export_integrations WHERE org_id = $1 ORDER BY created_at, id`,
    [orgId],
  );
  return rows.map(toIntegration);
}

/** The active integration whose schedule time has come first, locked; others' replicas skip it. */
export async function lockDueIntegration(db: Queryable, now: number): Promise<IntegrationRecord | undefined> {
  const rows: IntegrationRow[] = await db.query(
    `SELECT ${INTEGRATION_COLUMNS} FROM integrations.export_integrations
     WHERE status = 'active' AND next_run_at <= $1 ORDER BY next_run_at LIMIT 1 FOR UPDATE SKIP LOCKED`,
    [new Date(now).toISOString()],
  );
  return rows[0] ? toIntegration(rows[0]) : undefined;
}

export async function saveIntegration(db: Queryable, record: IntegrationRecord): Promise<void> {
  await db.query(
    `UPDATE integrations.export_integrations SET bucket = $3, prefix = $4, format = $5, time_zone = $6, schedule_at = $7, status = $8,
       next_run_at = $9, last_scheduled_date = $10::date, updated_at = now()
     WHERE org_id = $1 AND id = $2`,
    [
      record.orgId,
      record.id,
      record.bucket,
      record.prefix,
      record.format,
      record.timeZone,
      record.scheduleAt,
      record.status,
      new Date(record.nextRunAt).toISOString(),
      record.lastScheduledDate,
    ],
  );
}

export async function deleteIntegration(db: Queryable, orgId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  // Wrapped in a SELECT: TypeORM answers a bare DELETE with [rows, count].
  const rows: { id: string }[] = await db.query(
    `WITH deleted AS (DELETE FROM integrations.export_integrations WHERE org_id = $1 AND id = $2 RETURNING id) SELECT id FROM deleted`,
    [orgId, id],
  );
  return rows.length > 0;
}

// --- Runs

export interface NewRun {
  id: string;
  integrationId: string;
  orgId: string;
  from: string;
  to: string;
  trigger: RunTrigger;
  dates: readonly string[];
}

export async function insertRun(db: Queryable, run: NewRun): Promise<void> {
  await db.query(
    `INSERT INTO integrations.export_runs (id, integration_id, org_id, from_date, to_date, trigger, status) VALUES ($1, $2, $3, $4, $5, $6, 'queued')`,
    [run.id, run.integrationId, run.orgId, run.from, run.to, run.trigger],
  );
  await db.query(`INSERT INTO integrations.export_run_days (run_id, date, status) SELECT $1, d, 'queued' FROM unnest($2::date[]) AS d`, [run.id, run.dates]);
}

interface RunRow {
  id: string;
  integration_id: string;
  org_id: string;
  status: RunStatus;
  from_date: string;
  to_date: string;
  trigger: RunTrigger;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  error_code: ExportErrorCode | null;
  error_message: string | null;
  files: { key: string; rows: number; bytes: number; sha256: string }[];
}

const RUN_SELECT = `SELECT r.id, r.integration_id, r.org_id, r.status, to_char(r.from_date, 'YYYY-MM-DD') AS from_date, to_char(r.to_date, 'YYYY-MM-DD') AS to_date,
    r.trigger, r.created_at, r.started_at, r.finished_at, r.error_code, r.error_message,
    coalesce((SELECT json_agg(json_build_object('key', f.key, 'rows', f.rows, 'bytes', f.bytes, 'sha256', f.sha256) ORDER BY f.date)
              FROM integrations.export_files f WHERE f.run_id = r.id), '[]'::json) AS files
  FROM integrations.export_runs r`;

const toRun = (r: RunRow): ExportRun => ({
  id: r.id,
  status: r.status,
  from: r.from_date,
  to: r.to_date,
  trigger: r.trigger,
  created_at: r.created_at.toISOString(),
  started_at: r.started_at?.toISOString() ?? null,
  finished_at: r.finished_at?.toISOString() ?? null,
  files: r.files.map((f) => ({ key: f.key, rows: Number(f.rows), bytes: Number(f.bytes), sha256: f.sha256 })),
  error: r.error_code ? { code: r.error_code, message: r.error_message ?? '' } : null,
});

/** Runs newest first, at most `limit`. */
export async function listRuns(db: Queryable, orgId: string, integrationId: string, limit = 100): Promise<ExportRun[]> {
  const rows: RunRow[] = await db.query(`${RUN_SELECT} WHERE r.org_id = $1 AND r.integration_id = $2 ORDER BY r.created_at DESC, r.id LIMIT $3`, [
    orgId,
    integrationId,
    limit,
  ]);
  return rows.map(toRun);
}

export async function findRun(db: Queryable, orgId: string, integrationId: string, runId: string): Promise<ExportRun | undefined> {
  if (!isUuid(runId)) return undefined;
  const rows: RunRow[] = await db.query(`${RUN_SELECT} WHERE r.org_id = $1 AND r.integration_id = $2 AND r.id = $3`, [orgId, integrationId, runId]);
  return rows[0] ? toRun(rows[0]) : undefined;
}

export async function runById(db: Queryable, runId: string): Promise<(ExportRun & { integrationId: string; orgId: string }) | undefined> {
  const rows: RunRow[] = await db.query(`${RUN_SELECT} WHERE r.id = $1`, [runId]);
  return rows[0] ? { ...toRun(rows[0]), integrationId: rows[0].integration_id, orgId: rows[0].org_id } : undefined;
}

/** The newest run of each of these integrations. */
export async function lastRuns(db: Queryable, orgId: string, integrationIds: readonly string[]): Promise<Map<string, ExportRun>> {
  if (integrationIds.length === 0) return new Map();
  const rows: RunRow[] = await db.query(
    `${RUN_SELECT} WHERE r.id IN (SELECT DISTINCT ON (integration_id) id FROM integrations.export_runs
                                  WHERE org_id = $1 AND integration_id = ANY($2::uuid[]) ORDER BY integration_id, created_at DESC, id)`,
    [orgId, integrationIds],
  );
  return new Map(rows.map((r) => [r.integration_id, toRun(r)]));
}

/** An integration as the API shows it. */
export function integrationView(record: IntegrationRecord, lastRun: ExportRun | undefined): Integration {
  return {
    id: record.id,
    type: 'batch_export',
    namespace: record.namespace,
    storage_type: record.storageType,
    destination: { bucket: record.bucket, prefix: record.prefix },
    format: record.format,
    time_zone: record.timeZone,
    schedule: { at: record.scheduleAt },
    status: record.status,
    created_at: record.createdAt.toISOString(),
    last_run: lastRun ?? null,
  };
}

// --- Days exported (restatement)

export interface ExportedDay {
  date: string;
  /** epoch ms */
  start: number;
  end: number;
  snapshot: string;
}

/** The integration's days exported on or after `since`, with the snapshot each was read under. */
export async function exportedDays(db: Queryable, integrationId: string, since: string): Promise<ExportedDay[]> {
  const rows: { date: string; day_start: Date; day_end: Date; snapshot: string }[] = await db.query(
    `SELECT to_char(date, 'YYYY-MM-DD') AS date, day_start, day_end, snapshot::text AS snapshot FROM integrations.export_days
     WHERE integration_id = $1 AND date >= $2::date ORDER BY date`,
    [integrationId, since],
  );
  return rows.map((r) => ({ date: r.date, start: r.day_start.getTime(), end: r.day_end.getTime(), snapshot: r.snapshot }));
}

/** Every day any integration of the organization exported on or after `since`. */
export async function organizationExportedDays(db: Queryable, orgId: string, since: string): Promise<(ExportedDay & { key: string })[]> {
  const rows: { key: string; date: string; day_start: Date; day_end: Date; snapshot: string }[] = await db.query(
    `SELECT integration_id || ':' || to_char(date, 'YYYY-MM-DD') AS key, to_char(date, 'YYYY-MM-DD') AS date, day_start, day_end, snapshot::text AS snapshot
     FROM integrations.export_days WHERE org_id = $1 AND date >= $2::date`,
    [orgId, since],
  );
  return rows.map((r) => ({ key: r.key, date: r.date, start: r.day_start.getTime(), end: r.day_end.getTime(), snapshot: r.snapshot }));
}
