import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@meter/persistence';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import type { AlarmUpdate } from '../readings/updates';
import { logAlarms } from './alarm-log';

const alarm = (seq: number, code: 'TAMPER' | 'DRY', state: 'raised' | 'cleared', hour: number): AlarmUpdate => ({
  orgId: 'org_log',
  deviceId: 1,
  seq,
  alarm: { code, state, at: Date.UTC(2026, 10, 1, hour), channel: 1 },
});

describe('the device alarm log', () => {
  let infra: IsolatedInfra;
  let ds: DataSource;
  const log = (alarms: AlarmUpdate[]) => logAlarms(ds, alarms, () => 'm');
  const seqs = async (code: string) =>
    ((await ds.query(`SELECT seq::int AS seq FROM ingest.device_alarm_log WHERE code = $1 ORDER BY seq`, [code])) as { seq: number }[]).map((r) => r.seq);

  beforeAll(async () => {
    infra = await isolatedInfra();
    ds = await createDataSource({ schema: 'ingest', url: infra.databaseUrl, poolSize: 2, applicationName: 'alarm-log-test' }).initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await infra?.cleanup();
  });

  it('marks a message late when its code has a later one, and logs a redelivery once', async () => {
    expect(await log([alarm(10, 'TAMPER', 'raised', 1), alarm(12, 'DRY', 'raised', 1)])).toEqual(
      new Map([
        [10, false],
        [12, false],
      ]),
    );
    // 11 is late for TAMPER (10 is not later) but not for DRY; 9 is late for TAMPER; 10 again is a redelivery.
    expect(await log([alarm(11, 'DRY', 'cleared', 2), alarm(9, 'TAMPER', 'cleared', 2), alarm(10, 'TAMPER', 'raised', 1)])).toEqual(
      new Map([
        [11, true],
        [9, true],
      ]),
    );
    expect(await seqs('TAMPER')).toEqual([9, 10]);
  });

  it('keeps a code’s last hour and its latest message, dropping older ones', async () => {
    await ds.query(`UPDATE ingest.device_alarm_log SET logged_at = now() - interval '2 hours'`);
    await log([alarm(20, 'TAMPER', 'cleared', 3)]);
    expect(await seqs('TAMPER')).toEqual([20]);
    // DRY was not written to since: its old messages stay until it is; then its latest of them remains.
    expect(await seqs('DRY')).toEqual([11, 12]);
    await ds.query(`UPDATE ingest.device_alarm_log SET logged_at = now() - interval '2 hours' WHERE code = 'DRY'`);
    await log([alarm(5, 'DRY', 'raised', 0)]);
    expect(await seqs('DRY')).toEqual([5, 12]);
  });
});
