import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import type { DataSource } from 'typeorm';
import { authDataSource } from '../auth-data-source';
import { newEvent } from '../events/new-event';
import { AuditLog1765000000000 } from './audit-log.migration';

/** The audit log's migration copies in the auth events stored before it: an upgraded platform's past sign-ins are in the log. */
describe('audit log migration', () => {
  let infra: IsolatedInfra;
  let db: DataSource;

  beforeAll(async () => {
    infra = await isolatedInfra();
    db = await authDataSource({ DATABASE_URL: infra.databaseUrl }, 'audit-log-migration-test');
  });

  afterAll(async () => {
    await db?.destroy();
    await infra?.cleanup();
  });

  it('fills the new table from auth.events, once per event, metadata only', async () => {
    const migration = new AuditLog1765000000000();
    const runner = db.createQueryRunner();
    try {
      // As before the upgrade: no audit table, events already stored (1,205: more than one batch of 1,000).
      await migration.down(runner);
      const events = [
        newEvent(
          'session.started',
          { aggregateId: 'ses_a', orgId: 'org_a', version: 1 },
          { session_id: 'ses_a', admin_id: 'adm_a', expires_at: new Date().toISOString() },
        ),
        newEvent('admin.password_rehashed', { aggregateId: 'adm_a', orgId: 'org_a', version: 2 }, { admin_id: 'adm_a' }),
        ...Array.from({ length: 1203 }, (_, i) =>
          newEvent(
            'credential.created',
            { aggregateId: `cred_${i}`, orgId: 'org_a', version: 1 },
            {
              credential_id: `cred_${i}`,
              name: `Key ${i}`,
              type: 'secret',
              access_key: `sk_live_${i}`,
              scopes: [],
              allowed_cidrs: [],
              sealed_secret: `sealed-secret-${i}`,
              created_at: new Date().toISOString(),
            },
          ),
        ),
      ];
      for (const e of events) {
        await runner.query(
          `INSERT INTO auth.events (event_id, type, aggregate_id, org_id, version, occurred_at, payload) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
          [e.event_id, e.type, e.aggregate_id, e.org_id, e.version, e.occurred_at, JSON.stringify(e.payload)],
        );
      }
      await migration.up(runner);
    } finally {
      await runner.release();
    }
    const rows = (await db.query(`SELECT action, actor_id, target_id, detail, event_id FROM auth.audit_log ORDER BY seq`)) as Record<string, string | null>[];
    expect(rows).toHaveLength(1204); // the rehash is no admin's action
    expect(rows[0]).toMatchObject({ action: 'session.signed_in', actor_id: 'adm_a', target_id: 'ses_a' });
    expect(rows[1203]).toMatchObject({ action: 'credential.created', actor_id: null, target_id: 'cred_1202', detail: 'Key 1202' });
    expect(new Set(rows.map((r) => r.event_id)).size).toBe(1204);
    expect(JSON.stringify(rows)).not.toMatch(/sealed-secret|sk_live_/);
  });
});
