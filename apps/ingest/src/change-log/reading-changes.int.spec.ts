import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@meter/persistence';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import type { ReadingRow } from '../reading-store/reading-batch';
import { ensurePartitions } from '../reading-store/reading-store';
import { writeBatch } from '../readings/write-batch';

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
});
