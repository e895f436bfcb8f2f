import { readingChangesAfter, type Queryable } from '@meter/read-model';

/**
 * The exports' restatement state (docs/exports.md, "Restatement"): the
 * changes of the read model that exported days may still need, taken from
 * ingest's change log into `integrations.export_changes`; which exported
 * days a later change overlaps; and which changes no export needs any more.
 */

/** The exports' row in `integrations.reading_changes_position`: how far they have taken ingest's change log. */
const READER = 'exports';

/**
 * Copies the changes of ingest's change log that the exports' position has
 * not seen into `integrations.export_changes`, and moves the position to the
 * snapshot they were read under: one statement, in the caller's
 * transaction, so a change is taken exactly once. Changes of organizations
 * without an integration are passed over: an integration created later
 * exports after they committed, so its days see them. Returns how many
 * were copied.
 */
export async function takeReadingChanges(db: Queryable): Promise<number> {
  // Locked first: a replica taking at the same time waits, then reads from the position this one leaves.
  const [position]: { consumed: string }[] = await db.query(
    `SELECT consumed::text AS consumed FROM integrations.reading_changes_position WHERE reader = $1 FOR UPDATE`,
    [READER],
  );
  if (!position) throw new Error(`integrations.reading_changes_position has no row for ${READER}: run the migrations`);
  const [{ copied }]: { copied: number }[] = await db.query(
    `WITH copied AS (
       INSERT INTO integrations.export_changes (org_id, span_start, span_end, xid, changed_at)
       SELECT c.org_id, c.span_start, c.span_end, c.xid, c.changed_at FROM (${readingChangesAfter('$1::pg_snapshot')}) c
       WHERE EXISTS (SELECT 1 FROM integrations.export_integrations i WHERE i.org_id = c.org_id)
       RETURNING 1
     ), moved AS (
       -- pg_current_snapshot() is this statement's snapshot: the one the changes above were read under.
       UPDATE integrations.reading_changes_position SET consumed = pg_current_snapshot(), consumed_at = now() WHERE reader = $2 RETURNING 1
     )
     SELECT (SELECT count(*) FROM copied)::int AS copied, (SELECT count(*) FROM moved)::int AS moved`,
    [position.consumed, READER],
  );
  return copied;
}

/** An exported day as the restatement sees it: its span and the snapshot its export read. */
export interface ExportedSpan {
  key: string;
  /** epoch ms */
  start: number;
  end: number;
  /** `pg_current_snapshot()` of the export, as text */
  snapshot: string;
}

const spanArrays = (days: readonly ExportedSpan[]) => [
  days.map((d) => d.key),
  days.map((d) => new Date(d.start).toISOString()),
  days.map((d) => new Date(d.end).toISOString()),
  days.map((d) => d.snapshot),
];

/** The keys of the days a change overlaps that their export did not see (committed after its snapshot). */
export async function daysChangedSinceExport(db: Queryable, orgId: string, days: readonly ExportedSpan[]): Promise<Set<string>> {
  if (days.length === 0) return new Set();
  const rows: { key: string }[] = await db.query(
    `SELECT d.k AS key FROM unnest($2::text[], $3::timestamptz[], $4::timestamptz[], $5::text[]) AS d(k, s, e, snap)
     WHERE EXISTS (SELECT 1 FROM integrations.export_changes c
                   WHERE c.org_id = $1 AND c.span_end >= d.s AND c.span_start <= d.e AND NOT pg_visible_in_snapshot(c.xid, d.snap::pg_snapshot))`,
    [orgId, ...spanArrays(days)],
  );
  return new Set(rows.map((r) => r.key));
}

/** Organizations with changes taken. */
export async function organizationsWithChanges(db: Queryable): Promise<string[]> {
  const rows: { org_id: string }[] = await db.query(`SELECT DISTINCT org_id FROM integrations.export_changes`);
  return rows.map((r) => r.org_id);
}

/**
 * Deletes the organization's changes no export needs: every change older than
 * `maxAgeDays`, and the others unless an exported day they overlap did not
 * see them (those wait for the day's restatement). The caller must hold off
 * the organization's exports meanwhile, so no export is between its snapshot
 * and recording its day. Returns how many were deleted.
 */
export async function pruneExportChanges(db: Queryable, orgId: string, exported: readonly ExportedSpan[], maxAgeDays: number): Promise<number> {
  const result: [unknown[], number] = await db.query(
    `DELETE FROM integrations.export_changes c
     WHERE c.org_id = $1 AND (c.changed_at < now() - make_interval(days => $6) OR NOT EXISTS (
       SELECT 1 FROM unnest($2::text[], $3::timestamptz[], $4::timestamptz[], $5::text[]) AS d(k, s, e, snap)
       WHERE c.span_end >= d.s AND c.span_start <= d.e AND NOT pg_visible_in_snapshot(c.xid, d.snap::pg_snapshot)))`,
    [orgId, ...spanArrays(exported), maxAgeDays],
  );
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}
