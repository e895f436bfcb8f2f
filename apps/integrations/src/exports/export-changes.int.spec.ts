import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import { ensurePartitions, writeBatch, type ReadingRow } from '@meter/ingest';
import { createDataSource } from '@meter/persistence';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { daysChangedSinceExport, pruneReadingChanges } from './export-changes';

const H = 3600_000;
const T0 = Date.UTC(2026, 9, 1);

describe('the changes the exports restate from', () => {
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
  const changes = async () => (await ds.query(`SELECT org_id FROM ingest.reading_changes`)) as unknown[];
  const snapshot = async () => ((await ds.query(`SELECT pg_current_snapshot()::text AS s`)) as { s: string }[])[0].s;
  const day = (n: number) => ({ key: `d${n}`, start: T0 + n * 24 * H, end: T0 + (n + 1) * 24 * H });

  beforeAll(async () => {
    infra = await isolatedInfra();
    ds = await createDataSource({ schema: 'integrations', url: infra.databaseUrl, poolSize: 2, applicationName: 'export-changes-test' }).initialize();
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
