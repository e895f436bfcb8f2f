import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import { ensurePartitions, writeBatch, type ReadingRow } from '@meter/ingest';
import { createDataSource } from '@meter/persistence';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { daysChangedSinceExport, pruneExportChanges, takeReadingChanges } from './export-changes';

const H = 3600_000;
const T0 = Date.UTC(2026, 9, 1);

describe('the changes the exports restate from', () => {
  let infra: IsolatedInfra;
  let ds: DataSource;
  let seq = 0;

  const rowsOf = (rows: Omit<ReadingRow, 'seq'>[]) => rows.map((r) => ({ ...r, seq: ++seq }));
  const write = async (rows: Omit<ReadingRow, 'seq'>[]) => {
    const withSeq = rowsOf(rows);
    await ensurePartitions(
      (sql, params) => ds.query(sql, params),
      withSeq.map((r) => r.readAt),
      new Set(),
    );
    await ds.transaction((m) => writeBatch(m.queryRunner!, withSeq, []));
  };
  const take = () => ds.transaction((m) => takeReadingChanges(m));
  const changes = async () =>
    (
      (await ds.query(`SELECT org_id, span_start, span_end FROM integrations.export_changes ORDER BY org_id, span_start, span_end`)) as {
        org_id: string;
        span_start: Date;
        span_end: Date;
      }[]
    ).map((r) => ({ org: r.org_id, start: r.span_start.getTime(), end: r.span_end.getTime() }));
  const snapshot = async () => ((await ds.query(`SELECT pg_current_snapshot()::text AS s`)) as { s: string }[])[0].s;
  const day = (n: number) => ({ key: `d${n}`, start: T0 + n * 24 * H, end: T0 + (n + 1) * 24 * H });

  beforeAll(async () => {
    infra = await isolatedInfra();
    ds = await createDataSource({ schema: 'integrations', url: infra.databaseUrl, poolSize: 3, applicationName: 'export-changes-test' }).initialize();
    // o1 and o2 export; o3 has no integration.
    for (const org of ['o1', 'o2'])
      await ds.query(
        `INSERT INTO integrations.export_integrations (id, org_id, namespace, storage_type, bucket, prefix, format, time_zone, schedule_at, status, next_run_at)
         VALUES ($1, $2, 'batch', 's3_identity', 'b', '', 'csv', 'UTC', '02:00', 'active', now() + interval '1 day')`,
        [randomUUID(), org],
      );
    // Device 2 of o1 reads at T0+1h and T0+11h.
    await write([
      { orgId: 'o1', deviceId: 2, channel: 1, readAt: T0 + H, value: 1 },
      { orgId: 'o1', deviceId: 2, channel: 1, readAt: T0 + 11 * H, value: 2 },
    ]);
  });
  afterAll(async () => {
    await ds?.destroy();
    await infra?.cleanup();
  });

  it('takes each change of the read model once, for organizations that export, and moves the position past it', async () => {
    // The first two readings of a channel: two points, as ingest recorded them.
    expect(await take()).toBe(2);
    expect(await changes()).toEqual([
      { org: 'o1', start: T0 + H, end: T0 + H },
      { org: 'o1', start: T0 + 11 * H, end: T0 + 11 * H },
    ]);
    expect(await take()).toBe(0);
    await write([
      { orgId: 'o2', deviceId: 1, channel: 1, readAt: T0, value: 1 },
      { orgId: 'o3', deviceId: 1, channel: 1, readAt: T0, value: 1 },
    ]);
    expect(await take()).toBe(1);
    expect((await changes()).map((c) => c.org)).toEqual(['o1', 'o1', 'o2']);
    expect(await take()).toBe(0);
  });

  it('takes a change whose transaction committed after a later one, which a last-id position would skip', async () => {
    await ds.query('DELETE FROM integrations.export_changes');
    const slow = ds.createQueryRunner();
    await slow.connect();
    try {
      const early = rowsOf([{ orgId: 'o2', deviceId: 5, channel: 1, readAt: T0 + 5 * H, value: 1 }]);
      await ensurePartitions((sql, params) => ds.query(sql, params), [T0], new Set());
      await slow.startTransaction();
      // Its change row takes the lower id but stays uncommitted...
      await writeBatch(slow, early, []);
      // ...while a later batch commits and is taken.
      await write([{ orgId: 'o2', deviceId: 6, channel: 1, readAt: T0 + 6 * H, value: 1 }]);
      expect(await take()).toBe(1);
      expect(await changes()).toEqual([{ org: 'o2', start: T0 + 6 * H, end: T0 + 6 * H }]);
      await slow.commitTransaction();
    } finally {
      await slow.release();
    }
    expect(await take()).toBe(1);
    expect(await changes()).toEqual([
      { org: 'o2', start: T0 + 5 * H, end: T0 + 5 * H },
      { org: 'o2', start: T0 + 6 * H, end: T0 + 6 * H },
    ]);
  });

  it('names the exported days a later change overlaps, by snapshot, and prunes only what no export needs', async () => {
    await ds.query('DELETE FROM integrations.export_changes');
    const before = await snapshot();
    // A correction on day 0 (device 2's span: T0+1h .. T0+11h) committed after `before`, before `after`.
    await write([{ orgId: 'o1', deviceId: 2, channel: 1, readAt: T0 + H, value: 1.2 }]);
    const after = await snapshot();
    await take();
    const exported = [
      { ...day(0), snapshot: before },
      { ...day(1), snapshot: before },
      { ...day(0), key: 'd0-later', snapshot: after },
    ];
    expect(await daysChangedSinceExport(ds, 'o1', exported)).toEqual(new Set(['d0']));
    expect(await daysChangedSinceExport(ds, 'o2', exported)).toEqual(new Set());

    // Still needed by day 0 exported under `before`: kept. Once day 0 is exported again, it goes.
    expect(await pruneExportChanges(ds, 'o1', [{ ...day(0), snapshot: before }], 36)).toBe(0);
    expect(await changes()).toHaveLength(1);
    expect(await pruneExportChanges(ds, 'o1', [{ ...day(0), snapshot: after }], 36)).toBe(1);
    expect(await changes()).toEqual([]);
  });
});
