import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@meter/persistence';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';

const H = 3_600_000;
const T0 = Date.parse('2026-10-30T20:00:00Z'); // across the end of October

interface Row {
  device: number;
  channel: number;
  at: number;
  value: number;
  seq: number;
}

/** What the view must show: each channel's readings in order with the interval ending at each and the running total. */
function derived(rows: readonly Row[]) {
  const sorted = [...rows].sort((a, b) => a.device - b.device || a.channel - b.channel || a.at - b.at);
  let key = '';
  let prev: Row | undefined;
  let cum = 0;
  return sorted.map((r) => {
    if (`${r.device}:${r.channel}` !== key) [key, prev, cum] = [`${r.device}:${r.channel}`, undefined, 0];
    const reset = prev !== undefined && r.value < prev.value;
    const delta = prev !== undefined && !reset ? r.value - prev.value : 0;
    cum += delta;
    const out = { ...r, prev: prev?.at ?? null, delta, reset, cum };
    prev = r;
    return out;
  });
}

describe('ingest.readings, the view of the compact store: one row per reading, writable for tools and tests', () => {
  let infra: IsolatedInfra;
  let ds: DataSource;
  const stored: Row[] = [];

  beforeAll(async () => {
    infra = await isolatedInfra();
    ds = await createDataSource({ schema: 'ingest', url: infra.databaseUrl, poolSize: 2, applicationName: 'readings-view-test' }).initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await infra?.cleanup();
  });

  const insert = (rows: readonly Row[]) =>
    ds.query(
      `INSERT INTO ingest.readings (org_id, device_id, channel, read_at, value, prev_read_at, delta, reset, cum, stream_seq)
       SELECT 'o', d, c, 'epoch'::timestamptz + t * interval '1 millisecond', v, NULL, 99, true, -1, s
       FROM unnest($1::bigint[], $2::smallint[], $3::float8[], $4::float8[], $5::bigint[]) AS u(d, c, t, v, s)`,
      [rows.map((r) => r.device), rows.map((r) => r.channel), rows.map((r) => r.at), rows.map((r) => r.value), rows.map((r) => r.seq)],
    );
  const view = async () =>
    (
      (await ds.query(
        `SELECT device_id::float8 AS device, channel, (extract(epoch from read_at) * 1000)::float8 AS at, value, stream_seq::float8 AS seq,
           (extract(epoch from prev_read_at) * 1000)::float8 AS prev, delta, reset, cum
         FROM ingest.readings WHERE org_id = 'o' ORDER BY device_id, channel, read_at`,
      )) as (Row & { prev: number | null; delta: number; reset: boolean; cum: number })[]
    ).map((r) => ({ ...r, cum: expect.closeTo(r.cum, 9) }));
  const expected = () => derived(stored).map((r) => ({ ...r, cum: expect.closeTo(r.cum, 9) }));

  it('derives intervals and totals from the values, whatever derived columns an insert gives', async () => {
    for (let i = 0; i < 30; i++) {
      stored.push({ device: 1, channel: 1, at: T0 + i * H, value: 10 + i * 0.5, seq: i + 1 });
      if (i % 3 === 0) stored.push({ device: 2, channel: 2, at: T0 + i * H + 60_000, value: i === 12 ? 1 : 100 + i, seq: 100 + i });
    }
    await insert(stored);
    expect(await view()).toEqual(expected());
    expect(Number((await ds.query(`SELECT sum(reading_count) AS n FROM ingest.reading_days WHERE org_id = 'o'`))[0].n)).toBe(stored.length);
  });

  it('places a late insert, applies an update of a value and a delete, and moves the later days', async () => {
    const late = { device: 1, channel: 1, at: T0 + 2.5 * H, value: 11.1, seq: 500 };
    await insert([late]);
    stored.push(late);
    await ds.query(`UPDATE ingest.readings SET value = 9 WHERE org_id = 'o' AND device_id = 1 AND read_at = $1`, [new Date(T0 + 5 * H).toISOString()]);
    stored.find((r) => r.device === 1 && r.at === T0 + 5 * H)!.value = 9;
    await ds.query(`DELETE FROM ingest.readings WHERE org_id = 'o' AND device_id = 2 AND read_at < $1`, [new Date(T0 + 7 * H).toISOString()]);
    stored.splice(0, stored.length, ...stored.filter((r) => !(r.device === 2 && r.at < T0 + 7 * H)));
    // Only derived columns: nothing to store.
    await ds.query(`UPDATE ingest.readings SET delta = 99, cum = -1 WHERE org_id = 'o'`);
    expect(await view()).toEqual(expected());
  });

  it('takes a fleet in one statement: 2,000 channels of a day', async () => {
    const fleet: Row[] = [];
    for (let device = 10; device < 2010; device++) for (let h = 0; h < 24; h++) fleet.push({ device, channel: 1, at: T0 + h * H, value: h * 0.01, seq: h });
    await insert(fleet);
    stored.push(...fleet);
    expect(await view()).toEqual(expected());
  });
});
