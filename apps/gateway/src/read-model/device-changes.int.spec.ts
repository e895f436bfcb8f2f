import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import type { AppConfig } from '@meter/config';
import { createDataSource, DatabaseOutage } from '@meter/persistence';
import { ensurePartitions, writeBatch, type DeviceUpdate, type ReadingRow } from '@meter/ingest';
import { listDevices } from '@meter/read-model';
import { eventually, isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { DeviceCache } from './device-cache';
import { DeviceChanges } from './device-changes';

const H = 3600_000;
const T0 = Date.UTC(2026, 10, 20);

describe('the device cache hears the read model (real Postgres triggers and LISTEN)', () => {
  let infra: IsolatedInfra;
  let ds: DataSource;
  let cache: DeviceCache;
  let changes: DeviceChanges;
  let seq = 0;
  const loads: string[] = [];

  const reading = (orgId: string, deviceId: number): ReadingRow => ({ orgId, deviceId, channel: 1, readAt: T0 + ++seq * H, value: seq, seq });
  const write = (rows: ReadingRow[], updates: DeviceUpdate[] = []) => ds.transaction(async (m) => void (await writeBatch(m.queryRunner!, rows, updates)));
  /** The page through the cache, recording when it had to ask Postgres. */
  const page = async (orgId: string) =>
    (
      await cache.page(orgId, 0, 50, () => {
        loads.push(orgId);
        return listDevices(ds, orgId, 0, 50);
      })
    ).devices.map((d) => `${d.deviceId}:${d.name}`);

  beforeAll(async () => {
    infra = await isolatedInfra();
    ds = await createDataSource({ schema: 'ingest', url: infra.databaseUrl, poolSize: 2, applicationName: 'device-changes-test' }).initialize();
    await ensurePartitions((sql, params) => ds.query(sql, params), [T0, T0 + 1000 * H], new Set());
    cache = new DeviceCache();
    const outage = new DatabaseOutage({ probe: () => ds.query('SELECT 1'), log: { warn: () => undefined } });
    changes = new DeviceChanges({ DATABASE_URL: infra.databaseUrl, GATEWAY_DEVICE_CACHE: 'on' } as AppConfig, cache, outage);
    await changes.onModuleInit();
  }, 60_000);

  afterAll(async () => {
    await changes?.onApplicationShutdown();
    await ds?.destroy();
    await infra?.cleanup();
  });

  it('serves a page from memory and drops it when a device of that organization registers', async () => {
    expect(cache.active).toBe(true);
    expect(await page('org_a')).toEqual([]);
    expect(await page('org_a')).toEqual([]);
    expect(loads.filter((o) => o === 'org_a')).toHaveLength(1);

    await write([reading('org_a', 11)]);
    await eventually(async () => (await page('org_a')).length === 1, 5000, 'the new device in the page');
    expect(await page('org_a')).toEqual(['11:Device 11']);
  });

  it("another organization's change leaves the cached page alone", async () => {
    await page('org_a');
    const before = loads.length;
    await write([reading('org_b', 21)]);
    await eventually(async () => (await page('org_b')).length === 1, 5000, "org_b's device");
    const afterB = loads.length;
    await page('org_a');
    expect(loads.length).toBe(afterB);
    expect(afterB - before).toBeGreaterThanOrEqual(1);
  });

  it('a renamed device and a deleted one show on the next request', async () => {
    await write([], [{ orgId: 'org_a', deviceId: 11, seq: 10_000, receivedAt: T0, device: { name: 'Garden' } }]);
    await eventually(async () => (await page('org_a'))[0] === '11:Garden', 5000, 'the new name');
    await ds.query(`DELETE FROM ingest.devices WHERE org_id = 'org_a'`);
    await eventually(async () => (await page('org_a')).length === 0, 5000, 'the deletion');
  });

  it('turns itself off while LISTEN is gone, and on again when it is back', async () => {
    await ds.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'gateway-device-changes' AND datname = current_database()`);
    await eventually(async () => !cache.active, 5000, 'the cache off');
    const before = loads.length;
    await page('org_b');
    await page('org_b');
    expect(loads.length - before).toBe(2);
    await eventually(async () => cache.active, 15_000, 'the cache on again');
    await page('org_b');
    await page('org_b');
    expect(loads.length - before).toBe(3);
  }, 30_000);
});
