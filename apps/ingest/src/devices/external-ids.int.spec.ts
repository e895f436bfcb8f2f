import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import { deviceMessage } from '@meter/contracts';
import { createDataSource } from '@meter/persistence';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { writeBatch } from '../readings/write-batch';

const ORG = 'org_radio';

describe('radio ids of devices (external_ids)', () => {
  let infra: IsolatedInfra;
  let ds: DataSource;
  let seq = 0;

  beforeAll(async () => {
    infra = await isolatedInfra();
    ds = await createDataSource({ schema: 'ingest', url: infra.databaseUrl, poolSize: 2, applicationName: 'external-ids-test' }).initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await infra?.cleanup();
  });

  const register = (deviceId: number, payload: unknown, orgId = ORG) =>
    ds.transaction((m) =>
      writeBatch(m.queryRunner!, [], [{ orgId, deviceId, seq: ++seq, receivedAt: Date.UTC(2026, 10, 1), device: deviceMessage.parse(payload) }]),
    );
  const ids = async (orgId = ORG) =>
    (await ds.query('SELECT device_id::int AS id, dev_eui, wmbus_id FROM ingest.devices WHERE org_id = $1 ORDER BY device_id', [orgId])) as {
      id: number;
      dev_eui: string | null;
      wmbus_id: string | null;
    }[];

  it('stores a DevEUI in lower case and a wM-Bus id, keeps them when a message leaves them out, removes one given null', async () => {
    await register(1, { name: 'A', external_ids: { dev_eui: '0004A30B001C0530', wmbus_id: '76348799' } });
    expect(await ids()).toEqual([{ id: 1, dev_eui: '0004a30b001c0530', wmbus_id: '76348799' }]);
    await register(1, { name: 'A renamed' });
    expect(await ids()).toEqual([{ id: 1, dev_eui: '0004a30b001c0530', wmbus_id: '76348799' }]);
    await register(1, { name: 'A', external_ids: { wmbus_id: null } });
    expect(await ids()).toEqual([{ id: 1, dev_eui: '0004a30b001c0530', wmbus_id: null }]);
  });

  it('gives an id to the device a newer message names, taking it from the one that had it, in one organization only', async () => {
    await register(1, { name: 'A', external_ids: { dev_eui: '0004a30b001c0530' } }, 'org_other');
    await register(2, { name: 'B', external_ids: { dev_eui: '0004A30B001C0530' } });
    expect(await ids()).toEqual([
      { id: 1, dev_eui: null, wmbus_id: null },
      { id: 2, dev_eui: '0004a30b001c0530', wmbus_id: null },
    ]);
    expect(await ids('org_other'), 'another organization may use the same id').toEqual([{ id: 1, dev_eui: '0004a30b001c0530', wmbus_id: null }]);
  });
});
