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

/** Rows looked at per statement, from the head of the log. */
const BATCH = 10_000;

/**
 * Deletes the changes every reader has taken, and those older than
 * CHANGE_LOG_DAYS whoever has not. Without readers (no position table, or
 * no row in it) only age prunes. Works from the oldest rows by id, a batch
 * at a time, until a batch leaves rows it may not delete; what a reader has
 * not taken yet waits for the next run. Returns how many rows went.
 */
export async function pruneReadingChanges(db: Queryable): Promise<number> {
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
