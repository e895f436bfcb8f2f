import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { ensurePartitions, writeBatch, type ReadingRow } from '@meter/ingest';
import { createDataSource } from '@meter/persistence';
import * as rowStore from '@meter/read-model';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import * as dayStore from '../libs/read-model/src/readings/day-reading-reader';
import { deviceHistory as dayStoreDeviceHistory } from '../libs/read-model/src/readings/day-device-history';
import { streamExportDay as dayStoreStreamExportDay } from '../libs/read-model/src/readings/day-export-day';

/**
 * The compact store's readers (libs/read-model/src/readings/day-*.ts) answer
 * exactly what today's row-store readers answer: both stores filled by
 * ingest's `writeBatch` (which writes both in one transaction) with three
 * months of irregular readings, resets, gaps, late readings and
 * corrections, then every reader asked the same on a few hundred seeded
 * windows.
 */
const ORG = 'org_days_read';
const OTHER = 'org_days_other';
const H = 3_600_000;
const DAY = 24 * H;
const START = Date.UTC(2026, 8, 1, 0, 17, 3, 250);
const END = Date.UTC(2026, 10, 30, 22);
const DEVICES = [1, 2, 3, 4, 5, 99]; // 4: registered without readings; 5: no such device; 99: the other organization's only

/** A small deterministic generator (mulberry32). */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One channel's readings: steps of minutes to hours (and gaps of days), a reset now and then, 3-decimal values. */
function channelReadings(next: () => number, from: number, to: number, meanStep: number): { readAt: number; value: number }[] {
  const readings: { readAt: number; value: number }[] = [];
  let value = Math.round(next() * 5e6) / 1000;
  for (let at = from; at < to;) {
    readings.push({ readAt: at, value });
    const roll = next();
    at += roll < 0.01 ? Math.ceil(next() * 5) * DAY : roll < 0.05 ? DAY - (at % DAY) : Math.ceil(next() * 2 * meanStep);
    value = next() < 0.004 ? Math.round(next() * 1000) / 1000 : Math.round((value + next() * 0.3) * 1000) / 1000;
  }
  return readings;
}

/** [org, device, channel, first reading, last, mean step] of every channel with readings. */
const CHANNELS: [string, number, number, number, number, number][] = [
  [ORG, 1, 1, START, END, H],
  [ORG, 1, 2, START + 5 * H, END - 3 * DAY, 9 * H],
  [ORG, 2, 1, Date.UTC(2026, 9, 10, 13), END, 2 * H],
  [ORG, 3, 1, Date.UTC(2026, 9, 31, 23, 30), Date.UTC(2026, 9, 31, 23, 31), H], // one reading, the night before a month
  [OTHER, 1, 1, START + 7 * H, END, 3 * H],
  [OTHER, 99, 1, START, END, 5 * H],
];

/**
 * What ingest is sent: every channel's readings, a tenth held back and sent
 * late in shuffled batches, then corrections (some making resets), repeats
 * and stale redeliveries an older message carried.
 */
function deliveries(): ReadingRow[][] {
  const next = random(20261127);
  let seq = 0;
  const all: ReadingRow[] = CHANNELS.flatMap(([orgId, deviceId, channel, from, to, step]) =>
    channelReadings(next, from, to, step).map((r) => ({ orgId, deviceId, channel, ...r, seq: 0 })),
  );
  const late = all.filter(() => next() < 0.1);
  const lateSet = new Set(late);
  const inOrder = all.filter((r) => !lateSet.has(r)).sort((a, b) => a.readAt - b.readAt);
  const batches: ReadingRow[][] = [];
  for (let i = 0; i < inOrder.length; i += 400) batches.push(inOrder.slice(i, i + 400));
  late.sort(() => next() - 0.5);
  for (let i = 0; i < late.length; i += 150) batches.push(late.slice(i, i + 150));
  const corrections: ReadingRow[] = [];
  for (let i = 0; i < 120; i++) {
    const r = all[Math.floor(next() * all.length)];
    const roll = next();
    if (roll < 0.6) corrections.push({ ...r, value: Math.round((r.value + (next() - 0.3)) * 1000) / 1000 });
    else if (roll < 0.8) corrections.push({ ...r, value: Math.round(next() * 1000) / 1000 });
    else corrections.push({ ...r });
  }
  batches.push(corrections);
  for (const batch of batches) for (const r of batch) r.seq = ++seq;
  // Redelivered with an older sequence: changes nothing in either store.
  batches.push(corrections.slice(0, 20).map((r) => ({ ...r, value: r.value + 7, seq: r.seq - 1 })));
  return batches;
}

/** Windows: seeded random instants over the months and around them, readings' own instants, midnights, ±1 ms, long and reversed spans. */
function windows(instants: readonly number[]): [number, number][] {
  const next = random(7);
  const pick = () => {
    const roll = next();
    if (roll < 0.35) return START - 10 * DAY + Math.floor(next() * (END - START + 20 * DAY));
    if (roll < 0.65) return instants[Math.floor(next() * instants.length)] + (next() < 0.3 ? Math.round(next() * 2 - 1) : 0);
    if (roll < 0.85) return Math.floor((START + next() * (END - START)) / DAY) * DAY;
    return START - 10 * DAY + Math.floor(next() * (END - START + 20 * DAY)) + 0.5;
  };
  const list: [number, number][] = [
    [START - 40 * DAY, START - DAY], // before the first reading
    [END + H, END + 30 * DAY], // after the last
    [START - DAY, END + DAY], // everything
    [Date.UTC(2026, 9, 1), Date.UTC(2026, 10, 1)], // a month, and its boundaries
    [Date.UTC(2026, 9, 31, 23, 30), Date.UTC(2026, 10, 1)],
  ];
  while (list.length < 400) {
    const from = pick();
    const roll = next();
    const to =
      roll < 0.4
        ? from + Math.ceil(next() * 2 * DAY)
        : roll < 0.6
          ? from + Math.ceil(next() * 40 * DAY)
          : roll < 0.65
            ? from - Math.ceil(next() * DAY)
            : pick();
    list.push([from, to]);
  }
  return list;
}

/**
 * Running totals are compared to 1e-9 relative: after a late reading or a
 * correction the row store recomputes each later `cum` as the total before
 * the change plus the sum of the recomputed deltas, while the day store
 * adds the deltas in order within a day and shifts later days' `cum_before`
 * by the change, so the two doubles may differ in their last bits.
 */
function expectSameTotal(actual: number | undefined, expected: number, what: string) {
  expect(actual, what).toBeTypeOf('number');
  expect(Math.abs(actual! - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)));
}

describe('the compact store readers answer as the row store readers', () => {
  let infra: IsolatedInfra;
  let ds: DataSource;
  let client: Client;
  let instants: number[];
  const tally = { windows: 0, answers: 0, totals: 0, exactTotals: 0, intervals: 0 };

  beforeAll(async () => {
    infra = await isolatedInfra();
    ds = await createDataSource({ schema: 'ingest', url: infra.databaseUrl, poolSize: 2, applicationName: 'day-readers-test' }).initialize();
    client = new Client({ connectionString: infra.databaseUrl });
    await client.connect();
    const batches = deliveries();
    instants = [...new Set(batches.flat().map((r) => r.readAt))];
    await ensurePartitions((sql, params) => ds.query(sql, params), instants, new Set());
    await ds.transaction(async (m) =>
      writeBatch(
        m.queryRunner!,
        [],
        [
          { orgId: ORG, deviceId: 1, seq: 0, receivedAt: START, device: { name: 'Two channels', channels: 2 } },
          { orgId: ORG, deviceId: 3, seq: 0, receivedAt: START, device: { name: 'One reading, two channels', channels: 2 } },
          { orgId: ORG, deviceId: 4, seq: 0, receivedAt: START, device: { name: 'No readings' } },
        ],
        [{ orgId: ORG, deviceId: 1, seq: 0, alarm: { code: 'TAMPER', state: 'raised', at: Date.UTC(2026, 9, 12, 8), channel: 1 } }],
        { alertRules: false },
      ),
    );
    for (const batch of batches) await ds.transaction(async (m) => void (await writeBatch(m.queryRunner!, batch, [], [], { alertRules: false })));
  }, 240_000);

  afterAll(async () => {
    console.log(
      `compared ${tally.windows} windows: ${tally.answers} answers, ${tally.intervals} intervals, ${tally.totals} running-total differences (${tally.exactTotals} bit-equal)`,
    );
    await client?.end();
    await ds?.destroy();
    await infra?.cleanup();
  });

  it('holds both stores filled alike: the same readings, late ones and corrections among them', async () => {
    expect(await dayStore.storedReadingCount(ds, ORG)).toBe(await rowStore.storedReadingCount(ds, ORG));
    expect(await dayStore.storedReadingCount(ds, OTHER)).toBe(await rowStore.storedReadingCount(ds, OTHER));
    expect(await dayStore.storedReadingCount(ds, 'org_nobody')).toBe(0);
    expect(await rowStore.storedReadingCount(ds, ORG)).toBeGreaterThan(1500);
    for (const org of [ORG, OTHER]) expect(await dayStore.latestReadings(ds, org, DEVICES)).toEqual(await rowStore.latestReadings(ds, org, DEVICES));
    // the windows meet register resets
    expect((await rowStore.resetsInWindow(ds, ORG, [1, 2], START, END)).size).toBeGreaterThan(0);
  });

  it('answers the same on every window, for each reader', async () => {
    const list = windows(instants);
    const next = random(11);
    for (const [from, to] of list) {
      tally.windows++;
      const what = `[${new Date(from).toISOString()}, ${new Date(to).toISOString()})`;
      for (const org of [ORG, OTHER]) {
        for (const deviceId of DEVICES) {
          const expected = await rowStore.intervalsOverlapping(ds, org, deviceId, from, to);
          const actual = await dayStore.intervalsOverlapping(ds, org, deviceId, from, to);
          expect(actual, `${org} ${deviceId} ${what}`).toEqual(expected);
          for (const [channel, intervals] of expected)
            actual.get(channel)!.forEach((interval, i) => {
              tally.intervals++;
              for (const key of ['start', 'end', 'delta'] as const) expect(Object.is(interval[key], intervals[i][key]), what).toBe(true);
            });
        }
        expect(await dayStore.coveredChannels(ds, org, DEVICES, from, to), what).toEqual(await rowStore.coveredChannels(ds, org, DEVICES, from, to));
        expect(await dayStore.resetsInWindow(ds, org, DEVICES, from, to), what).toEqual(await rowStore.resetsInWindow(ds, org, DEVICES, from, to));
        const sums = await rowStore.consumptionInWindow(ds, org, DEVICES, from, to);
        const daySums = await dayStore.consumptionInWindow(ds, org, DEVICES, from, to);
        expect([...daySums.keys()], what).toEqual([...sums.keys()]);
        for (const [deviceId, channels] of sums) {
          expect([...daySums.get(deviceId)!.keys()], what).toEqual([...channels.keys()]);
          for (const [channel, total] of channels) {
            tally.totals++;
            if (Object.is(daySums.get(deviceId)!.get(channel), total)) tally.exactTotals++;
            expectSameTotal(daySums.get(deviceId)!.get(channel), total, `${org} ${deviceId}:${channel} ${what}`);
          }
        }
        tally.answers += DEVICES.length + 3;
      }
      // history: a window of its own for the month projection
      const window = next() < 0.8 ? { from: from - Math.floor(next() * 20 * DAY), to: to + Math.floor(next() * 20 * DAY) } : undefined;
      for (const deviceId of [1, 2, 3, 4, 5]) {
        const expected = await rowStore.deviceHistory(ds, ORG, deviceId, from, to, window);
        const actual = await dayStoreDeviceHistory(ds, ORG, deviceId, from, to, window);
        tally.answers++;
        if (!expected) {
          expect(actual).toBeUndefined();
          continue;
        }
        expect(actual!.device).toEqual(expected.device);
        expect(actual!.intervals).toEqual(expected.intervals);
        expect([...actual!.windowConsumption.keys()]).toEqual([...expected.windowConsumption.keys()]);
        for (const [channel, total] of expected.windowConsumption)
          expectSameTotal(actual!.windowConsumption.get(channel), total, `history ${deviceId}:${channel} ${what}`);
      }
    }
    expect(tally.windows).toBe(400);
  }, 600_000);

  it('streams the same export days', async () => {
    const next = random(5);
    let days = 0;
    for (let i = 0; i < 60; i++) {
      // a local day (23 to 25 hours) starting on a quarter hour, over the months and past both ends
      const start = Math.floor((START - 3 * DAY + next() * (END - START + 6 * DAY)) / 900_000) * 900_000;
      const end = start + DAY + (Math.floor(next() * 3) - 1) * H;
      for (const org of [ORG, OTHER]) {
        const expected = [];
        for await (const batch of rowStore.streamExportDay(client, org, start, end, 3)) expected.push(...batch);
        const actual = [];
        for await (const batch of dayStoreStreamExportDay(client, org, start, end, 3)) actual.push(...batch);
        expect(actual, new Date(start).toISOString()).toEqual(expected);
        days++;
      }
    }
    expect(days).toBe(120);
  });
});
