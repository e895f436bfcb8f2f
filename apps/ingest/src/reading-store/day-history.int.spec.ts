import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@meter/persistence';
import { DAY_MS } from '@meter/read-model';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import type { ChannelKey } from './reading-batch';
import { firstReadingAtFromDays, readingHistoriesFromDays, readingsAfterFromDays, widenToNeighboursFromDays } from './day-history';
import { firstReadingAt, readingHistories, readingsAfter, widenToNeighbours, type StoredInterval } from './reading-history';
import { CHANNELS, H, scenario, seededRandom, writeBoth } from './reading-scenario.fixture';

/**
 * Differential: each read of the compact store answers what today's read of
 * the row store answers, on both stores written with the same batches.
 * Instants, deltas and everything else compare exactly (Object.is, by
 * toEqual); running totals only closely: after a late reading or a
 * correction the row store recomputes a total as its base plus a window sum,
 * the compact store adds the deltas in order, and the two may differ in the
 * last bits.
 */

const ORG = 'org_history';
const OTHER = 'org_history_other';
const FLOW_WINDOWS = [H, 3 * DAY_MS + H, 9 * DAY_MS + H];

describe('ingest reads of the compact store answer as those of the row store', () => {
  let infra: IsolatedInfra;
  let ds: DataSource;
  const known = new Set<number>();
  const random = seededRandom(7);
  const compared = { histories: 0, first: 0, after: 0, widened: 0 };

  beforeAll(async () => {
    infra = await isolatedInfra();
    ds = await createDataSource({ schema: 'ingest', url: infra.databaseUrl, poolSize: 2, applicationName: 'day-history-test' }).initialize();
    // The other organization: the same devices with other readings, which no answer may include.
    for (const batch of scenario(11, OTHER, 120)) await writeBoth(ds, batch, known);
    for (const batch of scenario(5, ORG, 260)) await writeBoth(ds, batch, known);
  }, 120_000);
  afterAll(async () => {
    console.info(`day-history: compared ${JSON.stringify(compared)}`);
    await ds?.destroy();
    await infra?.cleanup();
  });

  /** Stored channels of both organizations, one without readings, one of a device only elsewhere. */
  const keys: ChannelKey[] = [
    ...CHANNELS.flatMap(([deviceId, channel]) => [ORG, OTHER].map((orgId) => ({ orgId, deviceId, channel }))),
    { orgId: ORG, deviceId: 1, channel: 9 },
    { orgId: ORG, deviceId: 4, channel: 1 },
    { orgId: 'org_none', deviceId: 1, channel: 1 },
  ];

  /** Arguments: every stored instant, a millisecond either side, midnights, random instants, and before the first and after the last. */
  async function instants(): Promise<number[]> {
    const stored: { at: number }[] = await ds.query(
      `SELECT (extract(epoch from read_at) * 1000)::float8 AS at FROM ingest.readings WHERE org_id = $1 ORDER BY read_at, device_id, channel`,
      [ORG],
    );
    const ats = stored.map((s) => s.at);
    const lo = Math.min(...ats);
    const hi = Math.max(...ats);
    const out = new Set<number>([lo - DAY_MS, lo - 1, hi + 1, hi + 3 * DAY_MS]);
    for (const at of ats) if (random() < 0.25) [at - 1, at, at + 1].forEach((a) => out.add(a));
    for (let day = Math.floor(lo / DAY_MS); day <= Math.ceil(hi / DAY_MS); day++) out.add(day * DAY_MS);
    for (let i = 0; i < 60; i++) out.add(Math.round(lo - DAY_MS + random() * (hi - lo + 2 * DAY_MS)));
    return [...out];
  }

  /** Equal, with running totals compared closely (see the file comment). */
  function expectSameIntervals(actual: readonly StoredInterval[], expected: readonly StoredInterval[]) {
    expect(actual.map(({ readAt, delta }) => ({ readAt, delta }))).toEqual(expected.map(({ readAt, delta }) => ({ readAt, delta })));
    actual.forEach((r, i) => expect(r.cum).toBeCloseTo(expected[i].cum, 6));
  }

  it('the scenario holds what the comparisons need', async () => {
    const [r] = await ds.query(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE reset)::int AS resets, count(DISTINCT date_trunc('month', read_at))::int AS months
       FROM ingest.readings WHERE org_id = $1`,
      [ORG],
    );
    expect(r.n).toBeGreaterThan(500);
    expect(r.resets).toBeGreaterThan(3);
    expect(r.months).toBeGreaterThanOrEqual(2);
    // Rows with empty days between them: a row's previous reading is days back.
    const [gaps] = await ds.query(`SELECT count(*)::int AS n FROM ingest.reading_days WHERE org_id = $1 AND prev_at < day - interval '1 day'`, [ORG]);
    expect(gaps.n).toBeGreaterThan(3);
  });

  it('readingHistoriesFromDays: the same 26-hour windows, first readings and last consumption', async () => {
    const ats = await instants();
    const ask = async (channels: Parameters<typeof readingHistories>[1]) => {
      const [expected, actual] = [await readingHistories(ds, channels), await readingHistoriesFromDays(ds, channels)];
      expect(actual.map(({ readings: _, ...rest }) => rest)).toEqual(expected.map(({ readings: _, ...rest }) => rest));
      actual.forEach((h, i) => expectSameIntervals(h.readings, expected[i].readings));
      compared.histories += channels.length;
      return expected;
    };
    let withReadings = 0;
    let withFlow = 0;
    for (const upTo of [null, ...ats]) {
      const flowWindowMs = FLOW_WINDOWS[Math.floor(random() * FLOW_WINDOWS.length)];
      const histories = await ask(keys.map((k) => ({ ...k, upTo, flowWindowMs })));
      withReadings += histories.filter((h) => h.readings.length > 1).length;
      withFlow += histories.filter((h) => h.lastFlowAt !== null && h.lastFlowAt < (h.readings[0]?.readAt ?? Infinity)).length;
    }
    // Channels asked together with different ends and windows.
    for (let i = 0; i < 40; i++)
      await ask(keys.map((k) => ({ ...k, upTo: random() < 0.2 ? null : ats[Math.floor(random() * ats.length)], flowWindowMs: FLOW_WINDOWS[i % 3] })));
    expect(withReadings).toBeGreaterThan(500);
    // The last consumption found before the 26 hours: the flow window reached further back.
    expect(withFlow).toBeGreaterThan(20);
    expect(await readingHistoriesFromDays(ds, [])).toEqual([]);
  });

  it('firstReadingAtFromDays: the same first reading of every device', async () => {
    for (const orgId of [ORG, OTHER, 'org_none'])
      for (const deviceId of [1, 2, 3, 4]) {
        expect(await firstReadingAtFromDays(ds, orgId, deviceId)).toEqual(await firstReadingAt(ds, orgId, deviceId));
        compared.first++;
      }
    expect(await firstReadingAtFromDays(ds, ORG, 1)).not.toBeNull();
  });

  it('readingsAfterFromDays: the same readings after any instant, up to any limit, and the same chunks end to end', async () => {
    const ats = await instants();
    const limits = [1, 2, 5, 17, 40, 300, 5000];
    let full = 0;
    for (const key of keys)
      for (const after of [null, ...ats.filter(() => random() < 0.35)]) {
        const limit = after === null ? 5000 : limits[Math.floor(random() * limits.length)];
        const expected = await readingsAfter(ds, key, after, limit);
        expectSameIntervals(await readingsAfterFromDays(ds, key, after, limit), expected);
        compared.after++;
        if (expected.length === limit) full++;
      }
    expect(full).toBeGreaterThan(50);
    // rebuild-alerts' walk: chunk after chunk from the first reading.
    for (const key of keys.slice(0, 4)) {
      const chunks: StoredInterval[][] = [[], []];
      for (const [i, read] of [readingsAfter, readingsAfterFromDays].entries())
        for (let after: number | null = null; ;) {
          const chunk = await read(ds, key, after, 7);
          chunks[i].push(...chunk);
          if (chunk.length < 7) break;
          after = chunk[chunk.length - 1].readAt;
        }
      expect(chunks[1].length).toBeGreaterThan(50);
      expectSameIntervals(chunks[1], chunks[0]);
      compared.after++;
    }
  });

  it('widenToNeighboursFromDays: the same spans, many per call', async () => {
    const ats = await instants();
    const at = () => ats[Math.floor(random() * ats.length)];
    let moved = 0;
    for (let call = 0; call < 40; call++) {
      const spans = keys.flatMap((k) =>
        Array.from({ length: 6 }, (_, i) => {
          const [a, b] = [at(), at()];
          // mostly ordered spans, some of one instant, a few reversed
          const [start, end] = i === 0 ? [a, a] : i === 5 ? [Math.max(a, b), Math.min(a, b)] : [Math.min(a, b), Math.max(a, b)];
          return { ...k, start, end, tag: `${call}:${i}` };
        }),
      );
      const expected = await widenToNeighbours(ds, spans);
      expect(await widenToNeighboursFromDays(ds, spans)).toEqual(expected);
      compared.widened += spans.length;
      moved += expected.filter((s, i) => s.start !== spans[i].start && s.end !== spans[i].end).length;
    }
    expect(moved).toBeGreaterThan(300);
    expect(await widenToNeighboursFromDays(ds, [])).toEqual([]);
  });
});
