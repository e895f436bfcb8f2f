import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@meter/persistence';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import type { ReadingRow } from '../reading-store/reading-batch';
import { ensurePartitions } from '../reading-store/reading-store';
import { writeBatch } from '../readings/write-batch';
import { pruneReadingChanges } from './prune-reading-changes';

const H = 3600_000;
const T0 = Date.UTC(2026, 9, 1);

describe('pruning the change log behind its readers', () => {
  let infra: IsolatedInfra;
  let ds: DataSource;
  let seq = 0;

  const write = async (deviceId: number) => {
    const rows: ReadingRow[] = [{ orgId: 'o1', deviceId, channel: 1, readAt: T0 + deviceId * H, value: 1, seq: ++seq }];
    await ensurePartitions(
      (sql, params) => ds.query(sql, params),
      rows.map((r) => r.readAt),
      new Set(),
    );
    await ds.transaction((m) => writeBatch(m.queryRunner!, rows, []));
  };
  const logged = async () =>
    ((await ds.query(`SELECT (extract(epoch from span_start) * 1000)::float8 AS at FROM ingest.reading_changes ORDER BY seq`)) as { at: number }[]).map(
      (r) => (r.at - T0) / H,
    );
  // The test stands in for the reader (the integrations' exports): its position is what it has taken.
  const readerTakesAll = () => ds.query(`UPDATE integrations.reading_changes_position SET consumed = pg_current_snapshot()`);
  const prune = () => pruneReadingChanges(ds);

  beforeAll(async () => {
    infra = await isolatedInfra();
    ds = await createDataSource({ schema: 'ingest', url: infra.databaseUrl, poolSize: 2, applicationName: 'prune-changes-test' }).initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await infra?.cleanup();
  });

  it('keeps what the reader has not taken, and deletes what it has', async () => {
    await write(1);
    await write(2);
    expect(await prune()).toBe(0);
    expect(await logged()).toEqual([1, 2]);
    await readerTakesAll();
    await write(3);
    expect(await prune()).toBe(2);
    expect(await logged()).toEqual([3]);
  });

  it('deletes changes past the restatement horizon, taken or not', async () => {
    await ds.query(`UPDATE integrations.reading_changes_position SET consumed = '1:1:'`);
    await write(4);
    await ds.query(`UPDATE ingest.reading_changes SET changed_at = now() - interval '37 days' WHERE span_start = $1`, [new Date(T0 + 3 * H)]);
    expect(await prune()).toBe(1);
    expect(await logged()).toEqual([4]);
  });

  it('prunes by age alone when no reader keeps a position', async () => {
    await ds.query(`DELETE FROM integrations.reading_changes_position`);
    expect(await prune()).toBe(0);
    expect(await logged()).toEqual([4]);
  });

  it('empties the log without dead rows once every reader has taken a backfill', async () => {
    await ds.query(`INSERT INTO integrations.reading_changes_position (reader, consumed) VALUES ('exports', '1:1:')`);
    const before = (await logged()).length;
    for (let deviceId = 10; deviceId < 40; deviceId++) await write(deviceId);
    expect(await prune()).toBe(0);
    await readerTakesAll();
    expect(await prune()).toBe(before + 30);
    expect(await logged()).toEqual([]);
    // No page left, so no dead row: the table's own size, not pg_stat's n_dead_tup, which other
    // sessions' deletes reach late (statistics are flushed lazily) and made this test flaky.
    const [size] = await ds.query(`SELECT pg_relation_size('ingest.reading_changes')::int AS heap`);
    expect(size).toEqual({ heap: 0 });
    await write(40);
    expect(await logged()).toEqual([40]);
  });
});
