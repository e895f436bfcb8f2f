import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@meter/persistence';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { daysChangedSinceExport, pruneReadingChanges } from './reading-changes';
import type { ReadingRow } from './reading-batch';
import { ensurePartitions, writeBatch } from './read-model-writer';

const H = 3600_000;
const T0 = Date.UTC(2026, 9, 1);
const iso = (ms: number) => new Date(ms).toISOString();

describe('the change log the exports restate from', () => {
  let infra: IsolatedInfra;
  let ds: DataSource;
  let seq = 0;

  const write = async (rows: Omit<ReadingRow, 'seq'>[]) => {
    const withSeq = rows.map((r) => ({ ...r, seq: ++seq }));
    await ensurePartitions(
      (sql, params) => ds.query(sql, params),
      withSeq.map((r) => r.readAt),
      new Set(),
    );
    await ds.transaction((m) => writeBatch(m.queryRunner!, withSeq, []));
  };
  const changes = async () =>
    (
      (await ds.query(`SELECT org_id, span_start, span_end FROM ingest.reading_changes ORDER BY org_id, span_start`)) as {
        org_id: string;
        span_start: Date;
        span_end: Date;
      }[]
    ).map((r) => ({ org: r.org_id, start: r.span_start.toISOString(), end: r.span_end.toISOString() }));
  const snapshot = async () => ((await ds.query(`SELECT pg_current_snapshot()::text AS s`)) as { s: string }[])[0].s;
  const day = (n: number) => ({ key: `d${n}`, start: T0 + n * 24 * H, end: T0 + (n + 1) * 24 * H });

  beforeAll(async () => {
    infra = await isolatedInfra();
    ds = await createDataSource({ schema: 'ingest', url: infra.databaseUrl, poolSize: 2, applicationName: 'changes-test' }).initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await infra?.cleanup();
  });

  it("records a batch's appended readings per organization, merged where they overlap, from each channel's previous reading", async () => {
    await write([
      { orgId: 'o1', deviceId: 1, channel: 1, readAt: T0, value: 1 },
      { orgId: 'o1', deviceId: 2, channel: 1, readAt: T0 + H, value: 1 },
      { orgId: 'o2', deviceId: 1, channel: 1, readAt: T0 + 2 * H, value: 1 },
    ]);
    // First readings have no interval yet: each is a point of its own.
    expect(await changes()).toEqual([
      { org: 'o1', start: iso(T0), end: iso(T0) },
      { org: 'o1', start: iso(T0 + H), end: iso(T0 + H) },
      { org: 'o2', start: iso(T0 + 2 * H), end: iso(T0 + 2 * H) },
    ]);
    await ds.query('DELETE FROM ingest.reading_changes');
    await write([
      { orgId: 'o1', deviceId: 1, channel: 1, readAt: T0 + 10 * H, value: 2 },
      { orgId: 'o1', deviceId: 2, channel: 1, readAt: T0 + 11 * H, value: 2 },
      // Far from the rest: a span of its own, not one stretching over the days between.
      { orgId: 'o1', deviceId: 3, channel: 1, readAt: T0 + 100 * H, value: 2 },
    ]);
    expect(await changes()).toEqual([
      { org: 'o1', start: iso(T0), end: iso(T0 + 11 * H) },
      { org: 'o1', start: iso(T0 + 100 * H), end: iso(T0 + 100 * H) },
    ]);
  });

  it('widens a late reading and a correction to their neighbours, and records nothing for a repeat', async () => {
    await ds.query('DELETE FROM ingest.reading_changes');
    await write([{ orgId: 'o1', deviceId: 1, channel: 1, readAt: T0 + 5 * H, value: 1.5 }]);
    expect(await changes()).toEqual([{ org: 'o1', start: iso(T0), end: iso(T0 + 10 * H) }]);
    await ds.query('DELETE FROM ingest.reading_changes');
    await write([{ orgId: 'o1', deviceId: 1, channel: 1, readAt: T0 + 5 * H, value: 1.5 }]);
    expect(await changes()).toEqual([]);
    await write([{ orgId: 'o1', deviceId: 1, channel: 1, readAt: T0 + 5 * H, value: 1.6 }]);
    expect(await changes()).toEqual([{ org: 'o1', start: iso(T0), end: iso(T0 + 10 * H) }]);
  });

  it('records the instant of a raised alarm (a late one may change an exported day), not of a clear', async () => {
    await ds.query('DELETE FROM ingest.reading_changes');
    const alarm = (state: 'raised' | 'cleared', at: number) => ({
      orgId: 'o3',
      deviceId: 7,
      seq: ++seq,
      alarm: { code: 'TAMPER' as const, state, at, channel: 1 },
    });
    await ds.transaction((m) => writeBatch(m.queryRunner!, [], [], [alarm('raised', T0 + 30 * H)]));
    await ds.transaction((m) => writeBatch(m.queryRunner!, [], [], [alarm('cleared', T0 + 31 * H)]));
    expect(await changes()).toEqual([{ org: 'o3', start: iso(T0 + 30 * H), end: iso(T0 + 30 * H) }]);
  });

  it('names the exported days a later change overlaps, by snapshot, and prunes only what no export needs', async () => {
    await ds.query('DELETE FROM ingest.reading_changes');
    const before = await snapshot();
    // A correction on day 0 (device 2's span: T0+1h .. T0+11h) committed after `before`, before `after`.
    await write([{ orgId: 'o1', deviceId: 2, channel: 1, readAt: T0 + H, value: 1.2 }]);
    const after = await snapshot();
    const exported = [
      { ...day(0), snapshot: before },
      { ...day(1), snapshot: before },
      { ...day(0), key: 'd0-later', snapshot: after },
    ];
    expect(await daysChangedSinceExport(ds, 'o1', exported)).toEqual(new Set(['d0']));
    expect(await daysChangedSinceExport(ds, 'o2', exported)).toEqual(new Set());

    // Still needed by day 0 exported under `before`: kept. Once day 0 is exported again, it goes.
    expect(await pruneReadingChanges(ds, 'o1', [{ ...day(0), snapshot: before }], 36)).toBe(0);
    expect(await changes()).toHaveLength(1);
    expect(await pruneReadingChanges(ds, 'o1', [{ ...day(0), snapshot: after }], 36)).toBe(1);
    expect(await changes()).toEqual([]);
  });
});
