import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'pg';
import type { QueryRunner } from 'typeorm';
import { DAY_MS, dayOf, packDay, walkDay, type Queryable, type ReadingDay } from '@meter/read-model';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { examined, PlanRecorder, scansOf } from '@meter/testing/plan-recorder';
import { firstReadingAt, readingHistories, readingsAfter, widenToNeighbours } from './reading-history';
import { rebuildReadingDays } from './day-rebuild';

/**
 * Ingest's reads of the compact store cost what the asked channels' own day
 * rows around the asked instants hold, not what the database holds: next to
 * another organization with the same device ids and 33,600 day rows, no
 * `reading_days` partition is read sequentially, every scan is keyed by
 * organization and device (and channel, but for the device-wide reads), and
 * the rows examined stay within the bound each question states.
 */
const CALLER = 'org_small';
const OTHER = 'org_big';
const OTHER_DEVICES = 400;
const START = Date.UTC(2026, 8, 1);
const HOURS = 2000; // up to 2026-11-23T07:00Z: 84 day rows per channel
const ROWS = 84;
const CALLER_CHANNELS: [device: number, channel: number][] = [
  [1, 1],
  [1, 2],
  [2, 1],
];

/** A channel's hourly day rows. */
function dayRows(): ReadingDay[] {
  const days: ReadingDay[] = [];
  let state: { at: number | null; value: number; cum: number } = { at: null, value: 0, cum: 0 };
  for (let i = 0; i < HOURS; i++) {
    const at = START + i * 3_600_000;
    let day = days[days.length - 1];
    if (day?.day !== dayOf(at)) {
      if (day) state = walkDay(day);
      days.push((day = { day: dayOf(at), readings: [], prevAt: state.at, prevValue: state.value, cumBefore: state.cum }));
    }
    day.readings.push({ us: (at - day.day * DAY_MS) * 1000, value: i * 0.01, seq: i + 1 });
  }
  return days;
}

describe("ingest's reads of the compact store follow the asked channels, not the database", () => {
  let infra: IsolatedInfra;
  let client: Client;

  const insertDays = (org: string, deviceIds: string, channel: number, days: ReadingDay[]) =>
    client.query(
      `INSERT INTO ingest.reading_days (org_id, device_id, channel, day, prev_at, prev_value, cum_before, reading_count, readings)
       SELECT $1, g.device_id, $2, DATE '1970-01-01' + u.day, 'epoch'::timestamptz + u.prev_at * interval '1 millisecond', u.prev_value, u.cum_before, u.n, u.readings
       FROM (${deviceIds}) AS g(device_id)
       CROSS JOIN unnest($3::int[], $4::float8[], $5::float8[], $6::float8[], $7::int[], $8::bytea[]) AS u(day, prev_at, prev_value, cum_before, n, readings)`,
      [
        org,
        channel,
        days.map((d) => d.day),
        days.map((d) => d.prevAt),
        days.map((d) => d.prevValue),
        days.map((d) => d.cumBefore),
        days.map((d) => d.readings.length),
        days.map((d) => packDay(d.readings)),
      ],
    );

  beforeAll(async () => {
    infra = await isolatedInfra();
    client = new Client({ connectionString: infra.databaseUrl });
    await client.connect();
    for (const month of ['2026-09-01', '2026-10-01', '2026-11-01']) await client.query('SELECT ingest.ensure_readings_partition($1::timestamptz)', [month]);
    const days = dayRows();
    await insertDays(OTHER, `SELECT generate_series(1, ${OTHER_DEVICES})`, 1, days);
    for (const [device, channel] of CALLER_CHANNELS) await insertDays(CALLER, `VALUES (${device})`, channel, days);
  });
  afterAll(async () => {
    await client?.end();
    await infra?.cleanup();
  });

  const at = (iso: string) => Date.parse(iso);
  const keys = [...CALLER_CHANNELS.map(([deviceId, channel]) => ({ orgId: CALLER, deviceId, channel })), { orgId: CALLER, deviceId: 3, channel: 1 }];
  const runner = (db: Queryable) => db as unknown as QueryRunner;
  const PARTITIONS = 3;

  /**
   * What ingest asks, which scans must name the channel, and the most day rows each query may examine: the rows
   * of the asked days, the probes around them, and for probes ordered by channel (no channel to key on) one row
   * per month partition. EXPLAIN rounds a subquery's rows per loop, so a probe finding a row on 3 of 4 channels
   * shows 4.
   */
  const questions: [string, boolean, number, (db: PlanRecorder) => Promise<unknown>][] = [
    [
      'alert histories up to an instant, NO_FLOW looking 9 days back',
      true,
      4 * (1 + 11),
      async (db) => {
        const upTo = at('2026-10-20T05:00:00Z');
        const histories = await readingHistories(
          db,
          keys.map((k) => ({ ...k, upTo, flowWindowMs: 9 * DAY_MS + 3_600_000 })),
        );
        expect(histories.map((h) => h.readings.length)).toEqual([27, 27, 27, 0]);
      },
    ],
    [
      'alert histories up to the latest reading',
      true,
      4 * (1 + 1 + 3),
      async (db) => {
        const histories = await readingHistories(
          db,
          keys.map((k) => ({ ...k, upTo: null, flowWindowMs: 3_600_000 })),
        );
        expect(histories.map((h) => h.lastFlowAt)).toEqual([...CALLER_CHANNELS.map(() => START + (HOURS - 1) * 3_600_000), null]);
      },
    ],
    ['first reading of a device', false, (2 + 1) * PARTITIONS + 2, async (db) => expect(await firstReadingAt(db, CALLER, 1)).toBe(START)],
    [
      'readings after an instant, a chunk of 500',
      true,
      4 + 8 + 16,
      async (db) => expect(await readingsAfter(db, keys[0], at('2026-10-20T05:00:00Z'), 500)).toHaveLength(500),
    ],
    [
      'neighbours of spans',
      true,
      4 * 3,
      async (db) => {
        const spans = keys.map((k) => ({ ...k, start: at('2026-10-20T05:30:00Z'), end: at('2026-10-21T23:30:00Z') }));
        expect((await widenToNeighbours(db, spans)).map((s) => [s.start, s.end])).toEqual([
          ...CALLER_CHANNELS.map(() => [at('2026-10-20T05:00:00Z'), at('2026-10-22T00:00:00Z')]),
          [spans[3].start, spans[3].end],
        ]);
      },
    ],
    ['rebuild of a device', false, 2 * ROWS + PARTITIONS, async (db) => expect(await rebuildReadingDays(runner(db), CALLER, 1)).toBe(0)],
  ];

  const settings = [
    ['without statistics', 'custom'],
    ['analyzed', 'custom'],
    ['analyzed, generic plans', 'generic'],
  ] as const;
  for (const [statistics, mode] of settings)
    it.each(questions)(`%s (${statistics})`, async (_, perChannel, bound, ask) => {
      if (statistics !== 'without statistics') await client.query('ANALYZE ingest.reading_days');
      const db = new PlanRecorder(client, mode);
      await ask(db);
      expect(db.plans.length).toBeGreaterThan(0);
      for (const { sql, plan } of db.plans) {
        const scans = scansOf(plan, 'reading_days');
        expect(scans.length, sql).toBeGreaterThan(0);
        for (const scan of scans) {
          expect(scan['Node Type'], sql).not.toBe('Seq Scan');
          expect(scan['Index Cond'] ?? '', sql).toMatch(perChannel ? /org_id = .*device_id = .*channel = / : /org_id = .*device_id = /);
        }
        expect(
          scans.reduce((sum, scan) => sum + examined(scan), 0),
          sql,
        ).toBeLessThanOrEqual(bound);
      }
    });
});
