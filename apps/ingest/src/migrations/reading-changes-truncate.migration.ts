import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `ingest.truncate_taken_reading_changes(keep_days, wait_ms)`: empties the
 * change log with TRUNCATE when every row of it may be pruned (every reader
 * has taken it, or it is older than `keep_days`; with no reader position,
 * age alone), and answers how many rows went; 0 when some row must stay or
 * the table's lock is not had within `wait_ms`.
 *
 * A backfill logs a row per batch; deleted rows stay in the table as dead
 * rows until vacuum, and the table keeps its size after it. TRUNCATE gives
 * the space back at once. It takes the table's exclusive lock, which waits
 * for the batches inserting into it and makes the next ones wait: at most
 * `wait_ms`, then the caller deletes row by row as before. TRUNCATE is not
 * MVCC-safe, which is harmless here: a transaction that started before it
 * and reads the log later sees it empty, and every reader has taken it all.
 */
export class ReadingChangesTruncate1764700000000 implements MigrationInterface {
  name = 'ReadingChangesTruncate1764700000000';

  async up(runner: QueryRunner) {
    await runner.query(`
      CREATE FUNCTION ingest.truncate_taken_reading_changes(keep_days int, wait_ms int) RETURNS bigint LANGUAGE plpgsql AS $$
      DECLARE
        logged bigint;
        kept boolean;
      BEGIN
        PERFORM set_config('lock_timeout', wait_ms || 'ms', true);
        LOCK TABLE ingest.reading_changes IN ACCESS EXCLUSIVE MODE;
        SELECT count(*) INTO logged FROM ingest.reading_changes;
        IF logged = 0 THEN
          RETURN 0;
        END IF;
        IF to_regclass('integrations.reading_changes_position') IS NULL THEN
          kept := EXISTS (SELECT 1 FROM ingest.reading_changes WHERE changed_at >= now() - make_interval(days => keep_days));
        ELSE
          -- the reader positions live in the integrations schema, absent where that service never ran: dynamic SQL
          EXECUTE $q$
            SELECT EXISTS (SELECT 1 FROM ingest.reading_changes h
                           WHERE h.changed_at >= now() - make_interval(days => $1)
                             AND NOT (EXISTS (SELECT 1 FROM integrations.reading_changes_position)
                                      AND NOT EXISTS (SELECT 1 FROM integrations.reading_changes_position p
                                                      WHERE NOT pg_visible_in_snapshot(h.xid, p.consumed))))$q$
            INTO kept USING keep_days;
        END IF;
        IF kept THEN
          RETURN 0;
        END IF;
        TRUNCATE ingest.reading_changes;
        RETURN logged;
      EXCEPTION WHEN lock_not_available THEN
        RETURN 0;
      END $$`);
  }

  async down(runner: QueryRunner) {
    await runner.query(`DROP FUNCTION IF EXISTS ingest.truncate_taken_reading_changes(int, int)`);
  }
}
