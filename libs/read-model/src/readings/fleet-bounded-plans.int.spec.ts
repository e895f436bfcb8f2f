import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type ClientBase } from 'pg';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { listAlertEpisodes, openAlertEpisodes, episodesRaisedBetween } from '../alerts';
import { deviceHistory } from '../device-history';
import { findDevices, listDevices } from '../devices/device-reader';
import { fleetPage } from '../devices/fleet-page';
import { exportDayDecimalPlaces, streamExportDay } from '../export-day';
import type { Queryable } from '../records';
import { consumptionInWindow, coveredChannels, latestReadings, resetsInWindow } from './reading-reader';

/**
 * Every query the gateway and the exporter run on readings costs what the
 * caller's own devices hold in the window asked for: planned on a database
 * where another organization (the same device ids) holds 200,000 readings,
 * no readings partition is read sequentially, each one is scanned by
 * organization, device and channel, and the rows examined stay within the
 * caller's readings.
 */
const CALLER = 'org_small';
const OTHER = 'org_big';
const START = '2026-09-01T00:00:00Z';
const HOURS = 2000; // up to 2026-11-23T07:00Z
const CALLER_CHANNELS: [device: number, channel: number][] = [
  [1, 1],
  [1, 2],
  [2, 1],
];
/** The caller's readings, all of them: what any of its questions may examine at most. */
const CALLER_READINGS = CALLER_CHANNELS.length * HOURS;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Cond'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** Runs each query for real and keeps its `EXPLAIN ANALYZE` plan. */
class PlanRecorder implements Queryable {
  readonly plans: { sql: string; plan: PlanNode }[] = [];
  private readonly cursors: { text: string; values: unknown[] }[] = [];

  /** `generic`: planned as the gateway's prepared statements are (`plan_cache_mode=force_generic_plan`), partitions pruned at run time. */
  constructor(
    private readonly client: Client,
    private readonly plans_: 'custom' | 'generic',
  ) {}

  async query(sql: string, params?: unknown[]) {
    await this.explain(sql, params);
    return (await this.client.query(sql, params)).rows;
  }

  /** The client for `streamExportDay`: its cursor's query is explained afterwards (`explainCursors`). */
  get cursorClient(): ClientBase {
    const recordCursor = (arg: unknown) => {
      const cursor = arg as { text?: string; values?: unknown[] };
      if (typeof cursor.text === 'string') this.cursors.push({ text: cursor.text, values: cursor.values ?? [] });
    };
    return new Proxy(this.client, {
      get: (target, key) =>
        key === 'query'
          ? (arg: unknown, ...rest: unknown[]) => {
              recordCursor(arg);
              return (target.query as (...args: unknown[]) => unknown)(arg, ...rest);
            }
          : Reflect.get(target, key),
    });
  }

  async explainCursors() {
    for (const { text, values } of this.cursors.splice(0)) await this.explain(text, values);
  }

  private async explain(sql: string, params: unknown[] = []) {
    let rows: { 'QUERY PLAN': { Plan: PlanNode }[] }[];
    if (this.plans_ === 'custom') rows = (await this.client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params)).rows;
    else {
      const literal = (v: unknown) => (v === null ? 'NULL' : this.client.escapeLiteral(Array.isArray(v) ? `{${v.join(',')}}` : String(v)));
      await this.client.query(`SET plan_cache_mode = force_generic_plan`);
      await this.client.query(`PREPARE planned AS ${sql}`);
      try {
        const args = params.length > 0 ? `(${params.map(literal).join(', ')})` : '';
        rows = (await this.client.query(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE planned${args}`)).rows;
      } finally {
        await this.client.query(`DEALLOCATE planned`);
        await this.client.query(`RESET plan_cache_mode`);
      }
    }
    this.plans.push({ sql, plan: rows[0]['QUERY PLAN'][0].Plan });
  }
}

function readingScans(node: PlanNode): PlanNode[] {
  const own = node['Relation Name']?.startsWith('readings') ? [node] : [];
  return [...own, ...(node.Plans ?? []).flatMap(readingScans)];
}

function deviceScans(node: PlanNode): PlanNode[] {
  const own = node['Relation Name'] === 'devices' ? [node] : [];
  return [...own, ...(node.Plans ?? []).flatMap(deviceScans)];
}

const examined = (n: PlanNode) => (n['Actual Rows'] + (n['Rows Removed by Filter'] ?? 0) + (n['Rows Removed by Index Recheck'] ?? 0)) * n['Actual Loops'];

describe("the read model's queries follow the caller's fleet, not the database", () => {
  let infra: IsolatedInfra;
  let client: Client;

  const load = (org: string, pairs: string) =>
    client.query(
      `INSERT INTO ingest.readings (org_id, device_id, channel, read_at, value, prev_read_at, delta, reset, cum, stream_seq)
       SELECT $1, p.device_id, p.channel, $2::timestamptz + i * interval '1 hour',
              CASE WHEN p.device_id = 2 AND i >= 1900 THEN (i - 1900) * 0.01 ELSE i * 0.01 END,
              CASE WHEN i > 0 THEN $2::timestamptz + (i - 1) * interval '1 hour' END,
              CASE WHEN i = 0 OR (p.device_id = 2 AND i = 1900) THEN 0 ELSE 0.01 END,
              p.device_id = 2 AND i = 1900, i * 0.01, i + 1
       FROM (${pairs}) AS p(device_id, channel) CROSS JOIN generate_series(0, $3 - 1) AS i`,
      [org, START, HOURS],
    );

  beforeAll(async () => {
    infra = await isolatedInfra();
    client = new Client({ connectionString: infra.databaseUrl });
    await client.connect();
    for (const month of ['2026-09-01', '2026-10-01', '2026-11-01']) await client.query('SELECT ingest.ensure_readings_partition($1::timestamptz)', [month]);
    await client.query(
      `INSERT INTO ingest.devices (org_id, device_id, name, channels, activated_at)
       SELECT $1, d, 'd', 1, $2::timestamptz FROM generate_series(1, 100) d`,
      [OTHER, START],
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
        START,
      ]);
    await load(OTHER, 'SELECT d, 1 FROM generate_series(1, 100) d');
    await load(CALLER, `VALUES ${CALLER_CHANNELS.map(([d, c]) => `(${d}, ${c})`).join(', ')}`);
  });
  afterAll(async () => {
    await client?.end();
    await infra?.cleanup();
  });

  const at = (iso: string) => Date.parse(iso);
  const ids = [1, 2, 3];
  /** What the gateway's routes and one export day ask, as a list of named calls. */
  const questions: [string, (db: PlanRecorder) => Promise<unknown>][] = [
    [
      'dashboard',
      async (db) => {
        const [from, now] = [at('2026-11-01T00:00:00Z'), at('2026-11-23T12:00:00Z')];
        await findDevices(db, CALLER, ids);
        await latestReadings(db, CALLER, ids);
        await openAlertEpisodes(db, CALLER, ids);
        await consumptionInWindow(db, CALLER, ids, from, now);
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
      async (db) => {
        await deviceHistory(db, CALLER, 1, at('2026-11-20T00:00:00Z'), at('2026-11-21T00:00:00Z'), {
          from: at('2026-11-01T00:00:00Z'),
          to: at('2026-12-01T00:00:00Z'),
        });
        await episodesRaisedBetween(db, CALLER, 1, at('2026-11-20T00:00:00Z'), at('2026-11-21T00:00:00Z'));
      },
    ],
    ['history of three months', (db) => deviceHistory(db, CALLER, 1, at('2026-09-01T00:00:00Z'), at('2026-12-01T00:00:00Z'))],
    ['projection (bulk)', (db) => consumptionInWindow(db, CALLER, ids, at('2026-11-01T00:00:00Z'), at('2026-12-01T00:00:00Z'))],
    [
      'paging devices and alerts',
      async (db) => {
        await listDevices(db, CALLER, 1, 1);
        await listAlertEpisodes(db, CALLER, { state: 'all', limit: 10 });
      },
    ],
    [
      'export day',
      async (db) => {
        const [start, end] = [at('2026-11-20T00:00:00Z'), at('2026-11-21T00:00:00Z')];
        await exportDayDecimalPlaces(db.cursorClient, CALLER, end);
        let channels = 0;
        for await (const batch of streamExportDay(db.cursorClient, CALLER, start, end)) channels += batch.length;
        expect(channels).toBe(4);
        await db.explainCursors();
      },
    ],
  ];

  it.each(['custom', 'generic'] as const)('pages devices by reading one index range of a page, not the whole fleet (%s plans)', async (plans) => {
    await client.query('ANALYZE ingest.devices');
    const db = new PlanRecorder(client, plans);
    expect((await listDevices(db, OTHER, 10, 5)).devices.map((d) => d.deviceId)).toEqual([11, 12, 13, 14, 15]);
    expect((await fleetPage(db, OTHER, { afterId: 10, limit: 5 })).devices.map((d) => d.deviceId)).toEqual([11, 12, 13, 14, 15]);
    for (const { sql, plan } of db.plans) {
      const scans = deviceScans(plan);
      expect(scans, sql).toHaveLength(1);
      // The page and the one more that says whether more follow: not OTHER's 100 devices.
      expect(examined(scans[0]), sql).toBeLessThanOrEqual(6);
    }
  });

  const settings = [
    ['without statistics', 'custom'],
    ['analyzed', 'custom'],
    ['analyzed, generic plans', 'generic'],
  ] as const;
  for (const [statistics, plans] of settings) {
    it.each(questions)(`%s (${statistics})`, async (_, ask) => {
      if (statistics !== 'without statistics') await client.query('ANALYZE ingest.readings, ingest.devices');
      const db = new PlanRecorder(client, plans);
      await ask(db);
      expect(db.plans.length).toBeGreaterThan(0);
      for (const { sql, plan } of db.plans) {
        const scans = readingScans(plan);
        for (const scan of scans) {
          expect(scan['Node Type'], sql).not.toBe('Seq Scan');
          expect(scan['Index Cond'] ?? '', sql).toMatch(/org_id = .*device_id = .*channel = /);
        }
        const rows = scans.reduce((sum, scan) => sum + examined(scan), 0);
        expect(rows, sql).toBeLessThanOrEqual(CALLER_READINGS);
      }
    });
  }
});
