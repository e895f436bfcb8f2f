import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The compact store's packed days in SQL, for what runs inside Postgres: the
 * `ingest.readings` view that keeps one row per reading for ad-hoc queries and
 * tools, and writes through it. The services pack and unpack in TypeScript
 * (libs/read-model/src/readings/day-pack.ts); these read the same format
 * exactly and write its raw-value form, which that code reads.
 *
 * - `ingest.unpack_day(bytea)`: the day's readings (µs in the day, value, stream sequence).
 * - `ingest.pack_day(us[], value[], seq[])`: a packed day, values as raw float64.
 * - `ingest.day_readings(day, readings, prev_at, prev_value, cum_before)`: the
 *   day's readings with their intervals and running totals, as `walkDay`.
 */
export class ReadingDaysSql1765100000200 implements MigrationInterface {
  name = 'ReadingDaysSql1765100000200';

  async up(runner: QueryRunner) {
    // LEB128 varints from `at` (0-based); answers the values and the offset after them.
    await runner.query(`
      CREATE OR REPLACE FUNCTION ingest.packed_varints(packed bytea, at integer, k bigint, OUT vals bigint[], OUT next_at integer)
      LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
      DECLARE
        x bigint; b integer; sh integer;
      BEGIN
        vals := '{}';
        FOR i IN 1..k LOOP
          x := 0; sh := 0;
          LOOP
            b := get_byte(packed, at);
            at := at + 1;
            x := x | ((b & 127)::bigint << sh);
            EXIT WHEN b < 128;
            sh := sh + 7;
          END LOOP;
          vals := vals || x;
        END LOOP;
        next_at := at;
      END $$`);
    await runner.query(`
      CREATE OR REPLACE FUNCTION ingest.unzigzag(z bigint) RETURNS bigint
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT CASE WHEN z % 2 = 0 THEN z / 2 ELSE -(z / 2) - 1 END $$`);
    // A big-endian IEEE 754 double from its 8 bytes, exactly (Postgres has no SQL-callable float8recv).
    await runner.query(`
      CREATE OR REPLACE FUNCTION ingest.float8_from_bytes(bytes bytea) RETURNS double precision
      LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
      DECLARE
        bits bigint := ('x' || encode(bytes, 'hex'))::bit(64)::bigint;
        e integer := ((bits >> 52) & 2047)::integer;
        f bigint := bits & 4503599627370495;
        v double precision;
      BEGIN
        IF e = 2047 THEN
          RAISE EXCEPTION 'packed day: a value is not finite';
        ELSIF e = 0 THEN
          v := f::double precision * 4.9406564584124654e-324::double precision;
        ELSE
          v := (f + 4503599627370496)::double precision * power(2::double precision, e - 1075);
        END IF;
        RETURN CASE WHEN bits < 0 THEN -v ELSE v END;
      END $$`);
    await runner.query(`
      CREATE OR REPLACE FUNCTION ingest.unpack_day(packed bytea) RETURNS TABLE (us bigint, value double precision, seq bigint)
      LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
      DECLARE
        header record; n bigint; mode integer; at integer;
        t bigint[]; m bigint[]; q bigint[]; v double precision[];
        step bigint; cur bigint; p double precision;
      BEGIN
        IF get_byte(packed, 0) <> 1 THEN
          RAISE EXCEPTION 'packed day: unknown format version %', get_byte(packed, 0);
        END IF;
        SELECT * INTO header FROM ingest.packed_varints(packed, 1, 1);
        n := header.vals[1];
        mode := get_byte(packed, header.next_at);
        at := header.next_at + 1;
        IF n = 0 THEN RETURN; END IF;
        SELECT * INTO header FROM ingest.packed_varints(packed, at, n);
        at := header.next_at;
        t := ARRAY[header.vals[1]];
        IF n > 1 THEN
          step := header.vals[2];
          t := t || (t[1] + step);
          FOR i IN 3..n LOOP
            step := step + ingest.unzigzag(header.vals[i]);
            t := t || (t[i - 1] + step);
          END LOOP;
        END IF;
        IF mode = 255 THEN
          v := '{}';
          FOR i IN 1..n LOOP
            v := v || ingest.float8_from_bytes(substring(packed FROM at + 1 FOR 8));
            at := at + 8;
          END LOOP;
        ELSIF mode <= 15 THEN
          p := (ARRAY[1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]::double precision[])[mode + 1];
          SELECT * INTO header FROM ingest.packed_varints(packed, at, n);
          at := header.next_at;
          cur := header.vals[1];
          v := ARRAY[cur::double precision / p];
          FOR i IN 2..n LOOP
            cur := cur + ingest.unzigzag(header.vals[i]);
            v := v || (cur::double precision / p);
          END LOOP;
        ELSE
          RAISE EXCEPTION 'packed day: unknown value mode %', mode;
        END IF;
        SELECT * INTO header FROM ingest.packed_varints(packed, at, n);
        cur := header.vals[1];
        q := ARRAY[cur];
        FOR i IN 2..n LOOP
          cur := cur + ingest.unzigzag(header.vals[i]);
          q := q || cur;
        END LOOP;
        RETURN QUERY SELECT x.us, x.value, x.seq FROM unnest(t, v, q) AS x(us, value, seq);
      END $$`);
    await runner.query(`
      CREATE OR REPLACE FUNCTION ingest.varint_hex(x bigint) RETURNS text
      LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
      DECLARE
        out text := '';
      BEGIN
        WHILE x >= 128 LOOP
          out := out || lpad(to_hex((x & 127) | 128), 2, '0');
          x := x >> 7;
        END LOOP;
        RETURN out || lpad(to_hex(x), 2, '0');
      END $$`);
    await runner.query(`
      CREATE OR REPLACE FUNCTION ingest.pack_day(us bigint[], value double precision[], seq bigint[]) RETURNS bytea
      LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
      DECLARE
        n integer := coalesce(array_length(us, 1), 0);
        hex text := '01' || ingest.varint_hex(n) || 'ff';
        d bigint;
      BEGIN
        IF n > 0 THEN
          hex := hex || ingest.varint_hex(us[1]);
          IF n > 1 THEN hex := hex || ingest.varint_hex(us[2] - us[1]); END IF;
          FOR i IN 3..n LOOP
            d := us[i] - 2 * us[i - 1] + us[i - 2];
            hex := hex || ingest.varint_hex(CASE WHEN d >= 0 THEN 2 * d ELSE -2 * d - 1 END);
          END LOOP;
          FOR i IN 1..n LOOP
            hex := hex || encode(float8send(value[i]), 'hex');
          END LOOP;
          hex := hex || ingest.varint_hex(seq[1]);
          FOR i IN 2..n LOOP
            d := seq[i] - seq[i - 1];
            hex := hex || ingest.varint_hex(CASE WHEN d >= 0 THEN 2 * d ELSE -2 * d - 1 END);
          END LOOP;
        END IF;
        RETURN decode(hex, 'hex');
      END $$`);
    await runner.query(`
      CREATE OR REPLACE FUNCTION ingest.day_readings(day date, packed bytea, prev_at timestamptz, prev_value double precision, cum_before double precision)
      RETURNS TABLE (read_at timestamptz, value double precision, prev_read_at timestamptz, delta double precision, reset boolean, cum double precision, stream_seq bigint)
      LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
      DECLARE
        r record;
        midnight timestamptz := day::timestamp AT TIME ZONE 'UTC';
      BEGIN
        prev_read_at := prev_at;
        cum := cum_before;
        FOR r IN SELECT * FROM ingest.unpack_day(packed) LOOP
          read_at := midnight + r.us * interval '1 microsecond';
          reset := prev_read_at IS NOT NULL AND r.value < prev_value;
          delta := CASE WHEN prev_read_at IS NOT NULL AND NOT reset THEN r.value - prev_value ELSE 0 END;
          cum := cum + delta;
          value := r.value;
          stream_seq := r.seq;
          RETURN NEXT;
          prev_read_at := read_at;
          prev_value := r.value;
        END LOOP;
      END $$`);
  }

  async down(runner: QueryRunner) {
    for (const fn of [
      'day_readings(date, bytea, timestamptz, double precision, double precision)',
      'pack_day(bigint[], double precision[], bigint[])',
      'varint_hex(bigint)',
      'unpack_day(bytea)',
      'float8_from_bytes(bytea)',
      'unzigzag(bigint)',
      'packed_varints(bytea, integer, bigint)',
    ])
      await runner.query(`DROP FUNCTION IF EXISTS ingest.${fn}`);
  }
}
