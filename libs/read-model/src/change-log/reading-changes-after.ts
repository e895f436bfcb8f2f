/**
 * The change log `ingest.reading_changes` (docs/exports.md, "Restatement")
 * as its readers take it: by position. A position is a `pg_snapshot`; what
 * it did not see is what a reader has not taken yet. A reader copies those
 * changes into its own schema and stores the snapshot of the statement that
 * copied them as its new position, in one transaction. A "last id taken"
 * would skip a change whose transaction took a lower id but committed after
 * a higher one; a snapshot never does. Ingest deletes what every reader's
 * position has seen.
 */

/** A position that has seen nothing: a new reader takes the whole log. */
export const CHANGE_LOG_START = '1:1:';

/**
 * SQL selecting the changes that `position` (an SQL expression of type
 * pg_snapshot, e.g. a parameter) did not see and the statement's snapshot
 * does, as `org_id, span_start, span_end, xid, changed_at`. Only
 * transactions from the position's xmin on can be unseen, so the index on
 * `xid` bounds the scan.
 */
export const readingChangesAfter = (position: string) => `
  SELECT c.org_id, c.span_start, c.span_end, c.xid, c.changed_at FROM ingest.reading_changes c
  WHERE c.xid >= pg_snapshot_xmin(${position}) AND NOT pg_visible_in_snapshot(c.xid, ${position})`;
