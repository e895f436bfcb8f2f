import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@meter/persistence';
import { packDay, unpackDay, walkDay, type DayReading } from '@meter/read-model';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';

/** Seeded days: hourly, quarter-hourly and irregular times, decimal and raw values, resets, sequences up and down. */
function days(seed: number, count: number): DayReading[][] {
  let s = seed;
  const random = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const out: DayReading[][] = [
    [],
    [{ us: 0, value: 0, seq: 0 }],
    [
      { us: 1, value: -0, seq: 2 ** 53 - 1 },
      { us: 86_399_999_999, value: 5e-324, seq: 0 },
    ],
    [
      { us: 5, value: 0.1 + 0.2, seq: 7 },
      { us: 6, value: 1.7976931348623157e308, seq: 8 },
      { us: 7, value: 2.2250738585072014e-308, seq: 9 },
    ],
  ];
  for (let d = 0; d < count; d++) {
    const n = 1 + Math.floor(random() * 96);
    const decimals = Math.floor(random() * 7);
    let us = Math.floor(random() * 3_600_000_000);
    let value = Math.round(random() * 1e6) / 10 ** decimals;
    let seq = Math.floor(random() * 1e9);
    const readings: DayReading[] = [];
    for (let i = 0; i < n && us < 86_400_000_000; i++) {
      readings.push({ us, value: random() < 0.02 ? random() : value, seq });
      us += random() < 0.8 ? 900_000_000 : 1 + Math.floor(random() * 3_600_000_000);
      value = Math.round((value + random() * 3) * 10 ** decimals) / 10 ** decimals;
      seq = Math.max(0, seq + Math.floor((random() - 0.2) * 40_000));
    }
    out.push(readings);
  }
  return out;
}

describe('packed days in SQL read and write what the TypeScript codec does', () => {
  let infra: IsolatedInfra;
  let ds: DataSource;

  beforeAll(async () => {
    infra = await isolatedInfra();
    ds = await createDataSource({ schema: 'ingest', url: infra.databaseUrl, poolSize: 2, applicationName: 'reading-days-sql-test' }).initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await infra?.cleanup();
  });

  const fromSql = (rows: { us: string; value: number; seq: string }[]) => rows.map((r) => ({ us: Number(r.us), value: r.value, seq: Number(r.seq) }));

  it('unpack_day reads every day packDay writes, bit for bit', async () => {
    const all = days(11, 300);
    const rows: { i: number; us: string; value: number; seq: string }[] = await ds.query(
      `SELECT p.i::int AS i, u.us, float8send(u.value) AS bits, u.value, u.seq
       FROM unnest($1::bytea[]) WITH ORDINALITY AS p(packed, i) CROSS JOIN LATERAL ingest.unpack_day(p.packed) u ORDER BY p.i, u.us`,
      [all.map((d) => packDay(d))],
    );
    const got = all.map(() => [] as typeof rows);
    for (const r of rows) got[r.i - 1].push(r);
    all.forEach((day, i) => {
      const read = fromSql(got[i]);
      expect(read).toEqual(day);
      read.forEach((r, j) => expect(Object.is(r.value, day[j].value)).toBe(true));
    });
  });

  it('pack_day writes days that unpackDay reads back exactly', async () => {
    const all = days(12, 200);
    const [{ packed }]: { packed: Buffer[] }[] = await ds.query(
      `SELECT array_agg(ingest.pack_day(d.us, d.value, d.seq) ORDER BY d.i) AS packed
       FROM (SELECT i, array_agg(us ORDER BY us) AS us, array_agg(value ORDER BY us) AS value, array_agg(seq ORDER BY us) AS seq
             FROM jsonb_to_recordset($1::jsonb) AS x(i int, us bigint, value float8, seq bigint) GROUP BY i) d`,
      [JSON.stringify(all.flatMap((day, i) => day.map((r) => ({ i, ...r, value: Object.is(r.value, -0) ? 0 : r.value }))))],
    );
    const nonEmpty = all.map((day) => day.map((r) => ({ ...r, value: Object.is(r.value, -0) ? 0 : r.value }))).filter((d) => d.length > 0);
    expect(packed.map((p) => unpackDay(p))).toEqual(nonEmpty);
  });

  it('day_readings derives the intervals and running totals walkDay does', async () => {
    const all = days(13, 100).filter((d) => d.length > 0);
    const bases = all.map((_, i) =>
      i % 3 === 0 ? { prevAt: null, prevValue: 0, cumBefore: 0 } : { prevAt: Date.UTC(2026, 9, 4, 23), prevValue: 50 + i, cumBefore: 12.25 * i },
    );
    const day = 20_366; // 2025-10-05
    const rows: { i: number; at: number; value: number; prev: number | null; delta: number; reset: boolean; cum: number; seq: string }[] = await ds.query(
      `SELECT p.i::int AS i, (extract(epoch from r.read_at) * 1000)::float8 AS at, r.value, (extract(epoch from r.prev_read_at) * 1000)::float8 AS prev,
         r.delta, r.reset, r.cum, r.stream_seq AS seq
       FROM unnest($1::bytea[], $2::float8[], $3::float8[], $4::float8[]) WITH ORDINALITY AS p(packed, prev_at, prev_value, cum_before, i)
       CROSS JOIN LATERAL ingest.day_readings(date '1970-01-01' + $5::int, p.packed, 'epoch'::timestamptz + p.prev_at * interval '1 millisecond', p.prev_value, p.cum_before) r
       ORDER BY p.i, r.read_at`,
      [all.map((d) => packDay(d)), bases.map((b) => b.prevAt), bases.map((b) => b.prevValue), bases.map((b) => b.cumBefore), day],
    );
    const expected: typeof rows = [];
    all.forEach((readings, i) =>
      walkDay({ day, readings, ...bases[i] }, (r, at, prev, delta, reset, cum) =>
        expected.push({ i: i + 1, at, value: r.value, prev, delta, reset, cum, seq: String(r.seq) }),
      ),
    );
    expect(rows).toEqual(expected);
  });
});
