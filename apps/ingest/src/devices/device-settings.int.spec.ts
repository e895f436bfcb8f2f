import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import { deviceMessage } from '@meter/contracts';
import { createDataSource } from '@meter/persistence';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { findDevices } from '@meter/read-model';
import { writeBatch } from '../readings/write-batch';

const ORG = 'org_settings';

describe('device settings: tariff, unit and alert thresholds', () => {
  let infra: IsolatedInfra;
  let ds: DataSource;
  let seq = 0;

  beforeAll(async () => {
    infra = await isolatedInfra();
    ds = await createDataSource({ schema: 'ingest', url: infra.databaseUrl, poolSize: 2, applicationName: 'device-settings-test' }).initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await infra?.cleanup();
  });

  const register = (payload: unknown) =>
    ds.transaction((m) =>
      writeBatch(m.queryRunner!, [], [{ orgId: ORG, deviceId: 7, seq: ++seq, receivedAt: Date.UTC(2026, 10, 1), device: deviceMessage.parse(payload) }]),
    );
  const device = async () => (await findDevices(ds, ORG, [7])).get(7)!;

  it('gives a new device the defaults', async () => {
    await register({ name: 'Meter 7' });
    expect(await device()).toMatchObject({
      unit: 'm³',
      tariff: null,
      leakThresholdPerHour: 0,
      burstThresholdPerHour: null,
      noFlowDays: 30,
      maxSilenceHours: 48,
    });
  });

  it('stores what a message gives and keeps what a later message leaves out', async () => {
    const tariff = {
      currency_symbol: '$',
      standing_charge_per_day: 0.3,
      blocks: [
        { up_to: 5, price_per_unit: 1 },
        { up_to: null, price_per_unit: 2.5 },
      ],
    };
    await register({
      name: 'Meter 7',
      unit: 'gal',
      tariff,
      leak_threshold_per_hour: 0.5,
      burst_threshold_per_hour: 40,
      no_flow_days: 10,
      max_silence_hours: 6,
    });
    const set = { unit: 'gal', tariff, leakThresholdPerHour: 0.5, burstThresholdPerHour: 40, noFlowDays: 10, maxSilenceHours: 6 };
    expect(await device()).toMatchObject(set);
    await register({ name: 'Meter 7 renamed' });
    expect(await device()).toMatchObject({ ...set, name: 'Meter 7 renamed' });
  });

  it('removes the tariff and the burst threshold with null', async () => {
    await register({ name: 'Meter 7', tariff: null, burst_threshold_per_hour: null });
    expect(await device()).toMatchObject({ tariff: null, burstThresholdPerHour: null, leakThresholdPerHour: 0.5, unit: 'gal' });
  });
});
