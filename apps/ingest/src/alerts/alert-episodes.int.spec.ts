import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import { alarmMessage, deviceMessage } from '@meter/contracts';
import { createDataSource } from '@meter/persistence';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { ensurePartitions } from '../reading-store/reading-store';
import { writeBatch } from '../readings/write-batch';
import type { ReadingRow } from '../reading-store/reading-batch';
import { rebuildDevice } from '../rebuild/rebuild';
import { listAlertEpisodes } from '@meter/read-model';
import { checkSilences } from './silence-check';

const ORG = 'org_alerts';
const H = 3_600_000;
const T0 = Date.UTC(2026, 9, 1);

/** Hourly readings of one device from `from`: each step is the consumption of the hour ending at the next reading. */
function hourly(deviceId: number, from: number, start: number, steps: number[], seq: number, channel = 1): ReadingRow[] {
  const rows: ReadingRow[] = [{ orgId: ORG, deviceId, channel, readAt: from, value: start, seq }];
  let value = start;
  steps.forEach((step, i) => {
    value = Math.round((value + step) * 1000) / 1000;
    rows.push({ orgId: ORG, deviceId, channel, readAt: from + (i + 1) * H, value, seq });
  });
  return rows;
}

describe('alert episodes in the read model', () => {
  let infra: IsolatedInfra;
  let ds: DataSource;
  let seq = 0;
  const partitions = new Set<number>();

  beforeAll(async () => {
    infra = await isolatedInfra();
    ds = await createDataSource({ schema: 'ingest', url: infra.databaseUrl, poolSize: 2, applicationName: 'alert-episodes-test' }).initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await infra?.cleanup();
  });

  const write = async (readings: ReadingRow[], alarms: unknown[] = [], deviceId = 1) => {
    await ensurePartitions(
      (sql, params) => ds.query(sql, params),
      readings.map((r) => r.readAt),
      partitions,
    );
    return ds.transaction((m) =>
      writeBatch(
        m.queryRunner!,
        readings,
        [],
        alarms.map((a) => ({ orgId: ORG, deviceId, seq: ++seq, alarm: alarmMessage.parse(a) })),
      ),
    );
  };
  const episodes = async (deviceId: number) =>
    (await listAlertEpisodes(ds, ORG, { deviceId, state: 'all', limit: 100 })).episodes.map((e) => ({ ...e })).reverse();
  const outbox = async () => (await ds.query(`SELECT payload FROM ingest.alert_outbox ORDER BY seq`)).map((r: { payload: unknown }) => r.payload);

  it('a 30-hour flow raises one LEAK however the readings arrive, and the first still hour clears it', async () => {
    const steps = [...Array(5).fill(0), ...Array(30).fill(0.01), ...Array(3).fill(0)];
    const all = hourly(1, T0, 100, steps, ++seq);
    // In pieces, with every piece delivered twice.
    for (let i = 0; i < all.length; i += 7) {
      await write(all.slice(i, i + 7));
      await write(all.slice(i, i + 7));
    }
    const leak = (await episodes(1)).filter((e) => e.code === 'LEAK');
    expect(leak).toHaveLength(1);
    expect(leak[0]).toMatchObject({ state: 'cleared', raised_at: T0 + 29 * H, cleared_at: T0 + 36 * H });
    const events = (await outbox()) as { type: string; data: { id: string; state: string } }[];
    expect(events.map((e) => `${e.type} ${e.data.state}`)).toEqual(['alert.raised open', 'alert.cleared cleared']);
    expect(new Set(events.map((e) => e.data.id))).toEqual(new Set([leak[0].id]));
  });

  it('a rebuild re-derives the same episodes, ids included', async () => {
    const before = await episodes(1);
    await ds.transaction((m) => rebuildDevice(m.queryRunner!, ORG, 1));
    expect(await episodes(1)).toEqual(before);
  });

  it('BURST over the device threshold, cleared by the next interval below it', async () => {
    await ds.transaction((m) =>
      writeBatch(
        m.queryRunner!,
        [],
        [{ orgId: ORG, deviceId: 2, seq: ++seq, receivedAt: T0, device: deviceMessage.parse({ name: 'B', burst_threshold_per_hour: 1 }) }],
      ),
    );
    await write(hourly(2, T0, 0, [0.2, 3, 0.2, 0.2], ++seq));
    expect((await episodes(2)).map((e) => [e.code, e.state, e.raised_at, e.cleared_at])).toEqual([['BURST', 'cleared', T0 + 2 * H, T0 + 3 * H]]);
  });

  it('a late reading is judged from the stored history', async () => {
    // Device 3: 30 hours of flow with the 12th reading missing (a 2-hour gap: no LEAK), then the missing one arrives.
    const all = hourly(3, T0, 0, [0, ...Array(30).fill(0.01)], ++seq);
    const missing = all.splice(12, 1);
    await write(all);
    expect(await episodes(3)).toEqual([]);
    await write(missing.map((r) => ({ ...r, seq: ++seq })));
    expect((await episodes(3)).map((e) => [e.code, e.state, e.raised_at])).toEqual([['LEAK', 'open', T0 + 31 * H]]);
  });

  it('device alarms open and close episodes; repeats and replays change nothing', async () => {
    const raised = { code: 'TAMPER', state: 'raised', at: new Date(T0 + H).toISOString(), channel: 2 };
    const cleared = { code: 'TAMPER', state: 'cleared', at: new Date(T0 + 2 * H).toISOString(), channel: 2 };
    await write([], [raised, raised], 4);
    expect((await episodes(4)).map((e) => [e.code, e.channel, e.state, e.message])).toEqual([['TAMPER', 2, 'open', 'The meter reports tampering.']]);
    await write([], [cleared, raised, cleared], 4);
    expect((await episodes(4)).map((e) => [e.code, e.state, e.raised_at, e.cleared_at])).toEqual([['TAMPER', 'cleared', T0 + H, T0 + 2 * H]]);
    // The alarm registered the device it came from.
    expect((await ds.query(`SELECT name, channels FROM ingest.devices WHERE org_id = $1 AND device_id = 4`, [ORG]))[0]).toEqual({
      name: 'Device 4',
      channels: 2,
    });
  });

  it('NO_COMMUNICATION by the clock, once, raised when the silence passed the limit; a newer reading clears it, a backfill does not', async () => {
    const lastAt = T0 + 35 * H; // device 5's latest reading below
    await write(hourly(5, T0, 0, Array(35).fill(0.001), ++seq));
    const now = T0 + 100 * H;
    // Every channel with readings is silent by then (devices 1, 2, 3 and 5); device 4 only sent alarms.
    expect(await ds.transaction((m) => checkSilences(m.queryRunner!, now))).toBe(4);
    expect(await ds.transaction((m) => checkSilences(m.queryRunner!, now + 60_000))).toBe(0);
    const silent = async () => (await episodes(5)).filter((e) => e.code === 'NO_COMMUNICATION').map((e) => [e.state, e.raised_at, e.cleared_at]);
    expect(await silent()).toEqual([['open', lastAt + 48 * H, null]]);
    // Ingest's clock is the real one: a reading of October is a backfill, one of an hour ago ends the silence.
    await write([{ orgId: ORG, deviceId: 5, channel: 1, readAt: lastAt + H, value: 1, seq: ++seq }]);
    expect(await silent()).toEqual([['open', lastAt + 48 * H, null]]);
    const recent = Math.floor(Date.now() / H) * H - H;
    await write([{ orgId: ORG, deviceId: 5, channel: 1, readAt: recent, value: 1, seq: ++seq }]);
    expect(await silent()).toEqual([['cleared', lastAt + 48 * H, recent]]);
  });
});
