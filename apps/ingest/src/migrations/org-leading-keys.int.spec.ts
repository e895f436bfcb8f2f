import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import { createDataSource } from '@meter/persistence';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { outboundEvent } from '@meter/contracts';
import { appendAlertEvents } from '../alerts/alert-outbox';
import { OrgLeadingKeys1764800000000 } from './org-leading-keys.migration';

/** Tables about the whole store rather than one organization's data: the backfill's progress by month. */
const WHOLE_STORE_TABLES = ['reading_days_backfill'];

describe('OrgLeadingKeys: every key of the read model leads with org_id (distributable by organization)', () => {
  let infra: IsolatedInfra;
  let ds: DataSource;

  /** Primary keys and unique indexes of the ingest schema's tables, with their first column. */
  const uniqueKeys = async () =>
    (await ds.query(
      `SELECT t.relname AS "table", i.relname AS "index", a.attname AS "first"
       FROM pg_index x
       JOIN pg_class i ON i.oid = x.indexrelid
       JOIN pg_class t ON t.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
       LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = x.indkey[0]
       WHERE n.nspname = 'ingest' AND x.indisunique AND NOT t.relispartition AND NOT t.relname = ANY($1)
       ORDER BY 1, 2`,
      [WHOLE_STORE_TABLES],
    )) as { table: string; index: string; first: string | null }[];

  const event = (org: string, id: string) =>
    outboundEvent.parse({
      event_id: id,
      type: 'alert.raised',
      org_id: org,
      occurred_at: '2026-11-01T00:00:00.000Z',
      data: { device_id: 1 },
    });

  beforeAll(async () => {
    infra = await isolatedInfra();
    ds = await createDataSource({ schema: 'ingest', url: infra.databaseUrl, poolSize: 2, applicationName: 'org-keys-test' }).initialize();
  });
  afterAll(async () => {
    await ds?.destroy();
    await infra?.cleanup();
  });

  it('leaves no primary or unique key of the ingest schema without org_id first', async () => {
    const keys = await uniqueKeys();
    expect(keys.map((k) => k.table)).toEqual(expect.arrayContaining(['alert_episodes', 'alert_outbox', 'devices', 'reading_days', 'reading_changes']));
    expect(keys.filter((k) => k.first !== 'org_id')).toEqual([]);
  });

  it('migrates the old layout in place, keeping every row and giving outbox rows their organization', async () => {
    const migration = new OrgLeadingKeys1764800000000();
    const runner = ds.createQueryRunner();
    try {
      await migration.down(runner);
      expect((await uniqueKeys()).filter((k) => k.first !== 'org_id').map((k) => k.table)).toEqual([
        'alert_episodes',
        'alert_outbox',
        'alert_outbox',
        'reading_changes',
      ]);
      const a = event('org-a', '0b9b8a66-3c55-4d0e-9d7c-2f1b0a3c7e01');
      await ds.query(`INSERT INTO ingest.alert_outbox (event_id, subject, payload) VALUES ($1, 's', $2)`, [a.event_id, JSON.stringify(a)]);
      await ds.query(`INSERT INTO ingest.reading_changes (org_id, span_start, span_end) VALUES ('org-a', now(), now())`);
      await ds.query(
        `INSERT INTO ingest.alert_episodes (id, org_id, device_id, channel, code, state, raised_at, message)
         VALUES ('6f1c1f38-44a4-4a57-8d43-1ad8a6a7a0a1', 'org-a', 1, 1, 'LEAK', 'open', now(), 'm')`,
      );

      await migration.up(runner);
      expect((await uniqueKeys()).filter((k) => k.first !== 'org_id')).toEqual([]);
      expect(await ds.query(`SELECT org_id, event_id FROM ingest.alert_outbox`)).toEqual([{ org_id: 'org-a', event_id: a.event_id }]);
      expect(await ds.query(`SELECT count(*)::int AS n FROM ingest.reading_changes`)).toEqual([{ n: 1 }]);
      expect(await ds.query(`SELECT count(*)::int AS n FROM ingest.alert_episodes`)).toEqual([{ n: 1 }]);

      // The writer after it: a replayed event is not added twice; another organization's is added.
      await appendAlertEvents(ds, [a, event('org-b', '0b9b8a66-3c55-4d0e-9d7c-2f1b0a3c7e02')]);
      expect(await ds.query(`SELECT org_id FROM ingest.alert_outbox ORDER BY seq`)).toEqual([{ org_id: 'org-a' }, { org_id: 'org-b' }]);
    } finally {
      await runner.release();
    }
  });
});
