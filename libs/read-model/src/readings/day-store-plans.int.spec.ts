import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'pg';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { examined, PlanRecorder, scansOf } from '@meter/testing/plan-recorder';
import { packDay } from './day-pack';
import { deviceHistory } from '../device-history';
import { streamExportDay } from '../export-day';
import { consumptionInWindow, coveredChannels, intervalsOverlapping, latestReadings, resetsInWindow, storedReadingCount } from './reading-reader';
import { DAY_MS, dayHasReset, dayOf, walkDay, type ReadingDay } from './reading-day';

/**
 * The compact store's readers cost what the caller's own day rows in the
 * window hold, as fleet-bounded-plans.int.spec.ts shows for the row store:
 * next to another organization (the same device ids) holding 33,600 day
 * rows, no `reading_days` partition is read sequentially, each scan is keyed
 * by organization, device and channel, and the rows examined stay within the
 * caller's day rows of the question's days and the probes around them.
 */
const CALLER = 'org_small';
const OTHER = 'org_big';
const OTHER_DEVICES = 400;
const START = Date.UTC(2026, 8, 1);
const HOURS = 2000; // up to 2026-11-23T07:00Z: 84 day rows per channel
const CALLER_CHANNELS: [device: number, channel: number][] = [
  [1, 1],
  [1, 2],
  [2, 1],
];

/** A channel's hourly day rows; device 2's register resets at hour 1900. */
function dayRows(deviceId: number): ReadingDay[] {
  const days: ReadingDay[] = [];
  let state: { at: number | null; value: number; cum: number } = { at: null, value: 0, cum: 0 };
  for (let i = 0; i < HOURS; i++) {
    const at = START + i * 3_600_000;
    const value = deviceId === 2 && i >= 1900 ? (i - 1900) * 0.01 : i * 0.01;
    let day = days[days.length - 1];
    if (day?.day !== dayOf(at)) {
      if (day) state = walkDay(day);
      days.push((day = { day: dayOf(at), readings: [], prevAt: state.at, prevValue: state.value, cumBefore: state.cum }));
    }
    day.readings.push({ us: (at - day.day * DAY_MS) * 1000, value, seq: i + 1 });
  }
  return days;
}

describe("the compact store's readers follow the caller's fleet, not the database", () => {
  let infra: IsolatedInfra;
  let client: Client;

  const insertDays = (org: string, deviceIds: string, channel: number, days: ReadingDay[]) =>
    client.query(
      `INSERT INTO ingest.reading_days (org_id, device_id, channel, day, prev_at, prev_value, cum_before, reading_count, readings, has_reset)
       SELECT $1, g.device_id, $2, DATE '1970-01-01' + u.day, 'epoch'::timestamptz + u.prev_at * interval '1 millisecond', u.prev_value, u.cum_before, u.n, u.readings, u.r
       FROM (${deviceIds}) AS g(device_id)
       CROSS JOIN unnest($3::int[], $4::float8[], $5::float8[], $6::float8[], $7::int[], $8::bytea[], $9::bool[])
         AS u(day, prev_at, prev_value, cum_before, n, readings, r)`,
      [
        org,
        channel,
        days.map((d) => d.day),
        days.map((d) => d.prevAt),
        days.map((d) => d.prevValue),
        days.map((d) => d.cumBefore),
        days.map((d) => d.readings.length),
        days.map((d) => packDay(d.readings)),
        days.map((d) => dayHasReset(d)),
      ],
    );

  beforeAll(async () => {
    infra = await isolatedInfra();
    client = new Client({ connectionString: infra.databaseUrl });
    await client.connect();
    for (const month of ['2026-09-01', '2026-10-01', '2026-11-01']) await client.query('SELECT ingest.ensure_readings_partition($1::timestamptz)', [month]);
    await client.query(
      `INSERT INTO ingest.devices (org_id, device_id, name, channels, activated_at)
       SELECT $1, d, 'd', 1, $2::timestamptz FROM generate_series(1, $3::int) d`,
      [OTHER, new Date(START).toISOString(), OTHER_DEVICES],
    );
    for (const [id, channels] of [
      [1, 2],
      [2, 1],
      [3, 1],
    ])
      await client.query(`INSERT INTO ingest.devices (org_id, device_id, name, channels, activated_at) VALUES ($1, $2, 'd', $3, $4)`, [
        CALLER,
        id,
        channels,
        new Date(START).toISOString(),
      ]);
    await insertDays(OTHER, `SELECT generate_series(1, ${OTHER_DEVICES})`, 1, dayRows(1));
    for (const [device, channel] of CALLER_CHANNELS) await insertDays(CALLER, `VALUES (${device})`, channel, dayRows(device));
  });
  afterAll(async () => {
    await client?.end();
    await infra?.cleanup();
  });

  const at = (iso: string) => Date.parse(iso);
  const ids = [1, 2, 3];
  /**
   * What the gateway's routes and one export day ask, and the most day rows each query may examine: per
   * channel asked about, the rows of the days asked about and the probes around them (a month's 23 days for
   * the dashboard's resets, two days and the rows around both ends of the month for a history day). Every
   * channel of the devices asked counts (4 for devices 1..3, 2 for device 1), also one without rows:
   * EXPLAIN reports a subquery's rows per loop rounded, so a probe finding a row on 3 of 4 channels shows 4.
   */
  const questions: [string, number, (db: PlanRecorder) => Promise<unknown>][] = [
    [
      'dashboard',
      4 * (23 + 3),
      async (db) => {
        const [from, now] = [at('2026-11-01T00:00:00Z'), at('2026-11-23T12:00:00Z')];
        expect((await latestReadings(db, CALLER, ids)).map((r) => [r.deviceId, r.channel, r.readAt])).toEqual(
          CALLER_CHANNELS.map(([d, c]) => [d, c, START + (HOURS - 1) * 3_600_000]),
        );
        expect((await consumptionInWindow(db, CALLER, ids, from, now)).get(1)!.get(1)).toBeCloseTo((HOURS - 1 - 61 * 24) * 0.01, 9);
        expect(await coveredChannels(db, CALLER, ids, from, now)).toEqual(
          new Map([
            [1, new Set([1, 2])],
            [2, new Set([1])],
          ]),
        );
        expect(await resetsInWindow(db, CALLER, ids, from, now)).toEqual(new Set(['2:1']));
      },
    ],
    [
      'history of a day with the month projection',
      2 * (2 + 1 + 2 * 3),
      async (db) => {
        const history = await deviceHistory(db, CALLER, 1, at('2026-11-20T00:00:00Z'), at('2026-11-21T00:00:00Z'), {
          from: at('2026-11-01T00:00:00Z'),
          to: at('2026-12-01T00:00:00Z'),
        });
        expect(history!.intervals.get(1)).toHaveLength(25);
      },
    ],
    [
      'history of three months',
      2 * (84 + 1),
      async (db) =>
        expect((await deviceHistory(db, CALLER, 1, at('2026-09-01T00:00:00Z'), at('2026-12-01T00:00:00Z')))!.intervals.get(2)).toHaveLength(HOURS - 1),
    ],
    ['intervals of a week', 2 * (8 + 1), (db) => intervalsOverlapping(db, CALLER, 1, at('2026-10-05T00:00:00Z'), at('2026-10-12T00:00:00Z'))],
    ['projection (bulk)', 4 * 2 * 3, (db) => consumptionInWindow(db, CALLER, ids, at('2026-11-01T00:00:00Z'), at('2026-12-01T00:00:00Z'))],
    [
      'export day',
      4 * (2 + 2),
      async (db) => {
        let channels = 0;
        for await (const batch of streamExportDay(db.cursorClient, CALLER, at('2026-11-20T00:00:00Z'), at('2026-11-21T00:00:00Z'))) channels += batch.length;
        expect(channels).toBe(4);
        await db.explainCursors();
      },
    ],
  ];

  const settings = [
    ['without statistics', 'custom'],
    ['analyzed', 'custom'],
    ['analyzed, generic plans', 'generic'],
  ] as const;
  for (const [statistics, mode] of settings) {
    it.each(questions)(`%s (${statistics})`, async (_, bound, ask) => {
      if (statistics !== 'without statistics') await client.query('ANALYZE ingest.reading_days, ingest.devices');
      const db = new PlanRecorder(client, mode);
      await ask(db);
      expect(db.plans.length).toBeGreaterThan(0);
      for (const { sql, plan } of db.plans) {
        const scans = scansOf(plan, 'reading_days');
        expect(scans.length, sql).toBeGreaterThan(0);
        for (const scan of scans) {
          expect(scan['Node Type'], `${scan['Relation Name']} ${examined(scan)}\n${sql}`).not.toBe('Seq Scan');
          expect(scan['Index Cond'] ?? '', sql).toMatch(/org_id = .*device_id = .*channel = /);
        }
        expect(
          scans.reduce((sum, scan) => sum + examined(scan), 0),
          sql,
        ).toBeLessThanOrEqual(bound);
      }
    });

    // A count over the whole organization, as the row store's (only the CLI's demo asks): custom plans key it
    // by organization; a generic one cannot know the organization is a small one.
    if (mode === 'custom')
      it(`counts the caller's readings from its own day rows (${statistics})`, async () => {
        if (statistics !== 'without statistics') await client.query('ANALYZE ingest.reading_days');
        const db = new PlanRecorder(client, mode);
        expect(await storedReadingCount(db, CALLER)).toBe(CALLER_CHANNELS.length * HOURS);
        const scans = scansOf(db.plans[0].plan, 'reading_days');
        for (const scan of scans)
          expect(`${scan['Node Type']}: ${scan['Index Cond'] ?? scan['Recheck Cond'] ?? ''}`).toMatch(/^(Index|Index Only|Bitmap Heap) Scan: .*org_id = /);
        expect(scans.reduce((sum, scan) => sum + examined(scan), 0)).toBe(CALLER_CHANNELS.length * 84);
      });
  }
});
