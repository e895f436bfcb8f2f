/**
 * `ingest.readings` as a view of the compact store: one row per reading, as
 * the table before it had, for ad-hoc queries, tools and tests. Writes
 * through it (INSERT, UPDATE of `value` or `stream_seq`, DELETE) are staged
 * row by row in `ingest.reading_inbox` and applied to the day rows once per
 * statement; the derived columns (`prev_read_at`, `delta`, `reset`, `cum`)
 * are always computed, so writing them changes nothing. The services never
 * write through it: ingest's writer packs day rows itself.
 */
export const READINGS_VIEW_SQL = [
  `CREATE UNLOGGED TABLE ingest.reading_inbox (
     ord bigserial,
     org_id text COLLATE "C" NOT NULL,
     device_id bigint NOT NULL,
     channel smallint NOT NULL,
     read_at timestamptz NOT NULL,
     value double precision,
     stream_seq bigint,
     deleted boolean NOT NULL DEFAULT false
   )`,
  `CREATE VIEW ingest.readings AS
   SELECT d.org_id, d.device_id, d.channel, r.read_at, r.value, r.prev_read_at, r.delta, r.reset, r.cum, r.stream_seq
   FROM ingest.reading_days d
   CROSS JOIN LATERAL ingest.day_readings(d.day, d.readings, d.prev_at, d.prev_value, d.cum_before) r`,
  `CREATE FUNCTION ingest.stage_reading() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP IN ('UPDATE', 'DELETE') THEN
       IF TG_OP = 'DELETE' OR (NEW.org_id, NEW.device_id, NEW.channel, NEW.read_at) IS DISTINCT FROM (OLD.org_id, OLD.device_id, OLD.channel, OLD.read_at) THEN
         INSERT INTO ingest.reading_inbox (org_id, device_id, channel, read_at, deleted) VALUES (OLD.org_id, OLD.device_id, OLD.channel, OLD.read_at, true);
       END IF;
       IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
       IF (NEW.org_id, NEW.device_id, NEW.channel, NEW.read_at, NEW.value, NEW.stream_seq)
          IS NOT DISTINCT FROM (OLD.org_id, OLD.device_id, OLD.channel, OLD.read_at, OLD.value, OLD.stream_seq) THEN
         RETURN NEW; -- only derived columns: nothing to store
       END IF;
     END IF;
     IF NEW.value IS NULL OR NEW.stream_seq IS NULL THEN
       RAISE EXCEPTION 'ingest.readings: value and stream_seq are required' USING ERRCODE = 'not_null_violation';
     END IF;
     INSERT INTO ingest.reading_inbox (org_id, device_id, channel, read_at, value, stream_seq) VALUES (NEW.org_id, NEW.device_id, NEW.channel, NEW.read_at, NEW.value, NEW.stream_seq);
     RETURN NEW;
   END $$`,
  // Applies the statement's staged rows: each touched channel-day repacked (set-based), then the bases of every later day of those channels.
  `CREATE FUNCTION ingest.apply_reading_inbox() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE
     ch record; d record; last record;
     at_prev timestamptz; v_prev double precision; c_prev double precision;
   BEGIN
     CREATE TEMP TABLE IF NOT EXISTS reading_inbox_taken (org_id text COLLATE "C", device_id bigint, channel smallint, day date, us bigint,
       value double precision, stream_seq bigint, deleted boolean) ON COMMIT DROP;
     TRUNCATE reading_inbox_taken;
     WITH taken AS (DELETE FROM ingest.reading_inbox RETURNING *)
     INSERT INTO reading_inbox_taken
     SELECT DISTINCT ON (org_id, device_id, channel, read_at) org_id, device_id, channel, (read_at AT TIME ZONE 'UTC')::date,
       (extract(epoch from read_at - ((read_at AT TIME ZONE 'UTC')::date::timestamp AT TIME ZONE 'UTC')) * 1000000)::bigint,
       value, stream_seq, deleted
     FROM taken ORDER BY org_id, device_id, channel, read_at, ord DESC;
     ANALYZE reading_inbox_taken;
     PERFORM ingest.ensure_readings_partition(m) FROM (SELECT DISTINCT date_trunc('month', day)::timestamp AT TIME ZONE 'UTC' AS m FROM reading_inbox_taken) x;

     CREATE TEMP TABLE IF NOT EXISTS reading_inbox_days (org_id text COLLATE "C", device_id bigint, channel smallint, day date,
       us bigint[], value double precision[], seq bigint[]) ON COMMIT DROP;
     TRUNCATE reading_inbox_days;
     WITH keys AS (SELECT DISTINCT org_id, device_id, channel, day FROM reading_inbox_taken),
     stored AS (
       SELECT k.org_id, k.device_id, k.channel, k.day, u.us, u.value, u.seq
       FROM keys k JOIN ingest.reading_days r ON r.org_id = k.org_id AND r.device_id = k.device_id AND r.channel = k.channel AND r.day = k.day
       CROSS JOIN LATERAL ingest.unpack_day(r.readings) u),
     merged AS (
       SELECT s.* FROM stored s
       WHERE NOT EXISTS (SELECT 1 FROM reading_inbox_taken t WHERE t.org_id = s.org_id AND t.device_id = s.device_id AND t.channel = s.channel
                         AND t.day = s.day AND t.us = s.us)
       UNION ALL
       SELECT org_id, device_id, channel, day, us, value, stream_seq FROM reading_inbox_taken WHERE NOT deleted)
     INSERT INTO reading_inbox_days
     SELECT k.org_id, k.device_id, k.channel, k.day,
       array_agg(m.us ORDER BY m.us) FILTER (WHERE m.us IS NOT NULL),
       array_agg(m.value ORDER BY m.us) FILTER (WHERE m.us IS NOT NULL),
       array_agg(m.seq ORDER BY m.us) FILTER (WHERE m.us IS NOT NULL)
     FROM keys k LEFT JOIN merged m ON m.org_id = k.org_id AND m.device_id = k.device_id AND m.channel = k.channel AND m.day = k.day
     GROUP BY k.org_id, k.device_id, k.channel, k.day;
     DELETE FROM ingest.reading_days r USING reading_inbox_days x
     WHERE x.us IS NULL AND r.org_id = x.org_id AND r.device_id = x.device_id AND r.channel = x.channel AND r.day = x.day;
     INSERT INTO ingest.reading_days AS t (org_id, device_id, channel, day, reading_count, readings)
     SELECT org_id, device_id, channel, day, array_length(us, 1), ingest.pack_day(us, value, seq) FROM reading_inbox_days WHERE us IS NOT NULL
     ON CONFLICT (org_id, device_id, channel, day) DO UPDATE SET reading_count = EXCLUDED.reading_count, readings = EXCLUDED.readings;

     FOR ch IN SELECT org_id, device_id, channel, min(day) AS from_day FROM reading_inbox_taken GROUP BY 1, 2, 3 LOOP
       at_prev := NULL; v_prev := 0; c_prev := 0;
       SELECT l.read_at, l.value, l.cum INTO last
       FROM (SELECT * FROM ingest.reading_days r WHERE r.org_id = ch.org_id AND r.device_id = ch.device_id AND r.channel = ch.channel AND r.day < ch.from_day
             ORDER BY r.day DESC LIMIT 1) p
       CROSS JOIN LATERAL ingest.day_readings(p.day, p.readings, p.prev_at, p.prev_value, p.cum_before) l ORDER BY l.read_at DESC LIMIT 1;
       IF FOUND THEN at_prev := last.read_at; v_prev := last.value; c_prev := last.cum; END IF;
       FOR d IN SELECT * FROM ingest.reading_days r WHERE r.org_id = ch.org_id AND r.device_id = ch.device_id AND r.channel = ch.channel AND r.day >= ch.from_day
                ORDER BY r.day LOOP
         IF (d.prev_at, d.prev_value, d.cum_before) IS DISTINCT FROM (at_prev, v_prev, c_prev) THEN
           UPDATE ingest.reading_days SET prev_at = at_prev, prev_value = v_prev, cum_before = c_prev
           WHERE org_id = d.org_id AND device_id = d.device_id AND channel = d.channel AND day = d.day;
         END IF;
         -- The reset flag (has_reset) follows the readings and the bases.
         UPDATE ingest.reading_days t SET has_reset = x.reset
         FROM (SELECT coalesce(bool_or(l.reset), false) AS reset FROM ingest.day_readings(d.day, d.readings, at_prev, v_prev, c_prev) l) x
         WHERE t.org_id = d.org_id AND t.device_id = d.device_id AND t.channel = d.channel AND t.day = d.day AND t.has_reset IS DISTINCT FROM x.reset;
         SELECT l.read_at, l.value, l.cum INTO last FROM ingest.day_readings(d.day, d.readings, at_prev, v_prev, c_prev) l ORDER BY l.read_at DESC LIMIT 1;
         at_prev := last.read_at; v_prev := last.value; c_prev := last.cum;
       END LOOP;
     END LOOP;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER readings_stage INSTEAD OF INSERT OR UPDATE OR DELETE ON ingest.readings FOR EACH ROW EXECUTE FUNCTION ingest.stage_reading()`,
  `CREATE TRIGGER readings_apply AFTER INSERT OR UPDATE OR DELETE ON ingest.readings FOR EACH STATEMENT EXECUTE FUNCTION ingest.apply_reading_inbox()`,
];
