import { RESTATEMENT_DAYS } from '@meter/contracts';
import type { Queryable } from '@meter/read-model';

/**
 * Where the change log's readers keep their positions: one row per reader,
 * `consumed` the pg_snapshot of what it has taken (docs/exports.md,
 * "Restatement"). Ingest only reads it, to prune behind the slowest reader.
 */
const READER_POSITIONS = 'integrations.reading_changes_position';

/** Changes are kept at most this long, taken or not: no export restates further back. */
export const CHANGE_LOG_DAYS = RESTATEMENT_DAYS + 1;

/** How long pruning waits for the log's exclusive lock to empty it at once (ingest's batches wait as long). */
const TRUNCATE_WAIT_MS = 200;

/** Rows looked at per statement, from the head of the log. */
const BATCH = 10_000;

/**
 * Deletes the changes every reader has taken, and those older than
 * CHANGE_LOG_DAYS whoever has not: all at once with TRUNCATE when that is
 * every row (migration ReadingChangesTruncate), else row by row. Without readers (no position table, or
 * no row in it) only age prunes. Works from the oldest rows by id, a batch
 * at a time, until a batch leaves rows it may not delete; what a reader has
 * not taken yet waits for the next run. Returns how many rows went.
 */
export async function pruneReadingChanges(db: Queryable): Promise<number> {
  // Everything may go (the usual case once readers caught up, e.g. after a backfill): TRUNCATE, no dead rows left.
  const [{ truncated }]: { truncated: number }[] = await db.query(`SELECT ingest.truncate_taken_reading_changes($1, $2)::float8 AS truncated`, [
    CHANGE_LOG_DAYS,
    TRUNCATE_WAIT_MS,
  ]);
  if (truncated > 0) return truncated;
  const [{ readers }]: { readers: boolean }[] = await db.query(`SELECT to_regclass($1) IS NOT NULL AS readers`, [READER_POSITIONS]);
  const taken = readers
    ? `OR (EXISTS (SELECT 1 FROM ${READER_POSITIONS})
           AND NOT EXISTS (SELECT 1 FROM ${READER_POSITIONS} p WHERE NOT pg_visible_in_snapshot(h.xid, p.consumed)))`
    : '';
  let pruned = 0;
  for (;;) {
    const result: [unknown[], number] = await db.query(
      `DELETE FROM ingest.reading_changes c
       USING (SELECT seq, xid, changed_at FROM ingest.reading_changes ORDER BY seq LIMIT ${BATCH}) h
       WHERE c.seq = h.seq AND (h.changed_at < now() - make_interval(days => $1) ${taken})`,
      [CHANGE_LOG_DAYS],
    );
    const deleted = Array.isArray(result) && typeof result[1] === 'number' ? result[1] : 0;
    pruned += deleted;
    if (deleted < BATCH) return pruned;
  }
}
