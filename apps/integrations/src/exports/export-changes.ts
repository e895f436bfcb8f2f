import type { Queryable } from '@meter/read-model';

/**
 * The restatement's view of the read model's change log (docs/exports.md):
 * which exported days a later change overlaps, and which changes no export
 * needs any more.
 */

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
     WHERE EXISTS (SELECT 1 FROM ingest.reading_changes c
                   WHERE c.org_id = $1 AND c.span_end >= d.s AND c.span_start <= d.e AND NOT pg_visible_in_snapshot(c.xid, d.snap::pg_snapshot))`,
    [orgId, ...spanArrays(days)],
  );
  return new Set(rows.map((r) => r.key));
}

/** Organizations with recorded changes. */
export async function organizationsWithChanges(db: Queryable): Promise<string[]> {
  const rows: { org_id: string }[] = await db.query(`SELECT DISTINCT org_id FROM ingest.reading_changes`);
  return rows.map((r) => r.org_id);
}

/**
 * Deletes the organization's changes no export needs: every change older than
 * `maxAgeDays`, and the others unless an exported day they overlap did not
 * see them (those wait for the day's restatement). The caller must hold off
 * the organization's exports meanwhile, so no export is between its snapshot
 * and recording its day. Returns how many were deleted.
 */
export async function pruneReadingChanges(db: Queryable, orgId: string, exported: readonly ExportedSpan[], maxAgeDays: number): Promise<number> {
  const result: [unknown[], number] = await db.query(
    `DELETE FROM ingest.reading_changes c
     WHERE c.org_id = $1 AND (c.changed_at < now() - make_interval(days => $6) OR NOT EXISTS (
       SELECT 1 FROM unnest($2::text[], $3::timestamptz[], $4::timestamptz[], $5::text[]) AS d(k, s, e, snap)
       WHERE c.span_end >= d.s AND c.span_start <= d.e AND NOT pg_visible_in_snapshot(c.xid, d.snap::pg_snapshot)))`,
    [orgId, ...spanArrays(exported), maxAgeDays],
  );
  return Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
}
