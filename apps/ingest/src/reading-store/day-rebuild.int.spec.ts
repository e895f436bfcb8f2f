import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource, QueryRunner } from 'typeorm';
import { createDataSource } from '@meter/persistence';
import { walkDay } from '@meter/read-model';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { rebuildReadingDays } from './day-rebuild';
import { DAY_ROW_COLUMNS, readingDayOf, type DayRowColumns } from './day-row';
import { scenario, writeDays } from './reading-scenario.fixture';

const ORG = 'org_rebuild';
const OTHER = 'org_rebuild_other';
const DEVICES = [1, 2, 3, 4]; // 4 has no readings

interface Derived {
  device: number;
  channel: number;
  at: number;
  prev: number | null;
  delta: number;
  reset: boolean;
  cum: number;
}

const differs = (a: Derived, b: Derived) =>
  a.at !== b.at || a.prev !== b.prev || !Object.is(a.delta, b.delta) || a.reset !== b.reset || !Object.is(a.cum, b.cum);

describe('rebuildReadingDays: day-row bases recomputed from the packed values', () => {
  let infra: IsolatedInfra;
  let ds: DataSource;
  const known = new Set<number>();

  beforeAll(async () => {
    infra = await isolatedInfra();
    ds = await createDataSource({ schema: 'ingest', url: infra.databaseUrl, poolSize: 2, applicationName: 'day-rebuild-test' }).initialize();
    for (const batch of scenario(13, OTHER, 80)) await writeDays(ds, batch, known);
    for (const batch of scenario(3, ORG, 220)) await writeDays(ds, batch, known);
  }, 120_000);
  afterAll(async () => {
    await ds?.destroy();
    await infra?.cleanup();
  });

  /** Every reading of the compact store with what walkDay derives for it. */
  async function walked(orgId: string): Promise<Derived[]> {
    const rows: (DayRowColumns & { device: number; channel: number })[] = await ds.query(
      `SELECT r.device_id::float8 AS device, r.channel, ${DAY_ROW_COLUMNS} FROM ingest.reading_days r WHERE r.org_id = $1 ORDER BY r.device_id, r.channel, r.day`,
      [orgId],
    );
    const out: Derived[] = [];
    for (const row of rows)
      walkDay(readingDayOf(row), (_, at, prev, delta, reset, cum) => out.push({ device: row.device, channel: row.channel, at, prev, delta, reset, cum }));
    return out;
  }

  const bases = (orgId: string) =>
    ds.query(`SELECT device_id, channel, day, prev_at, prev_value, cum_before, readings FROM ingest.reading_days WHERE org_id = $1 ORDER BY 1, 2, 3`, [orgId]);

  async function inTransaction<T>(work: (runner: QueryRunner) => Promise<T>): Promise<T> {
    const runner = ds.createQueryRunner();
    await runner.startTransaction();
    try {
      const result = await work(runner);
      await runner.commitTransaction();
      return result;
    } catch (error) {
      await runner.rollbackTransaction();
      throw error;
    } finally {
      await runner.release();
    }
  }

  async function rebuildAll(pageRows?: number): Promise<number> {
    let changed = 0;
    for (const deviceId of DEVICES) changed += await inTransaction((runner) => rebuildReadingDays(runner, ORG, deviceId, pageRows));
    return changed;
  }

  let canonical: Derived[];

  it("after the writer, it moves at most running totals' last bits, counts the readings it changed, then finds nothing to do", async () => {
    const written = await walked(ORG);
    expect(written.length).toBeGreaterThan(500);
    const changed = await rebuildAll();
    canonical = await walked(ORG);
    expect(canonical.map(({ cum: _, ...rest }) => rest)).toEqual(written.map(({ cum: _, ...rest }) => rest));
    canonical.forEach((r, i) => expect(r.cum).toBeCloseTo(written[i].cum, 6));
    expect(changed).toBe(canonical.filter((r, i) => differs(r, written[i])).length);
    expect(await rebuildAll()).toBe(0);
  });

  it.each([1000, 3])('restores corrupted bases exactly, touching no other organization (pages of %i rows)', async (pageRows) => {
    const other = await bases(OTHER);
    const [hit] = await ds.query(
      `WITH a AS (UPDATE ingest.reading_days SET cum_before = -1, prev_at = NULL, prev_value = 0
                  WHERE org_id = $1 AND (day - date '1970-01-01') % 3 = 0 RETURNING 1),
            b AS (UPDATE ingest.reading_days SET prev_at = prev_at - interval '1 hour', prev_value = prev_value + 5
                  WHERE org_id = $1 AND (day - date '1970-01-01') % 3 = 1 AND prev_at IS NOT NULL RETURNING 1)
       SELECT (SELECT count(*) FROM a)::int AS a, (SELECT count(*) FROM b)::int AS b`,
      [ORG],
    );
    expect(hit.a).toBeGreaterThan(5);
    expect(hit.b).toBeGreaterThan(5);
    const corrupted = await walked(ORG);
    const expected = corrupted.filter((r, i) => differs(r, canonical[i])).length;
    expect(expected).toBeGreaterThan(100);

    expect(await rebuildAll(pageRows)).toBe(expected);
    expect(await walked(ORG)).toEqual(canonical);
    expect(await bases(OTHER)).toEqual(other);
    expect(await rebuildAll(pageRows)).toBe(0);
  });

  it('leaves the readings view showing what walkDay derives', async () => {
    const rows: Derived[] = await ds.query(
      `SELECT device_id::float8 AS device, channel, (extract(epoch from read_at) * 1000)::float8 AS at,
         (extract(epoch from prev_read_at) * 1000)::float8 AS prev, delta, reset, cum
       FROM ingest.readings WHERE org_id = $1 ORDER BY device_id, channel, read_at`,
      [ORG],
    );
    // Exactly, running totals too: the view's SQL adds the deltas in order from the same bases.
    expect(await walked(ORG)).toEqual(rows);
  });
});
