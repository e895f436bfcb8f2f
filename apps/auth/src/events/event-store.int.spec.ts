import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import type { DataSource } from 'typeorm';
import { authDataSource } from '../auth-data-source';
import { appendEvents, ConcurrencyConflict } from './event-store';
import { newEvent } from './new-event';

describe('event store against Postgres', () => {
  let infra: IsolatedInfra;
  let db: DataSource;

  beforeAll(async () => {
    infra = await isolatedInfra();
    db = await authDataSource({ DATABASE_URL: infra.databaseUrl }, 'event-store-test');
  });

  afterAll(async () => {
    await db?.destroy();
    await infra?.cleanup();
  });

  const revoked = (version: number) =>
    newEvent(
      'credential.revoked',
      { aggregateId: 'cred_a', orgId: 'org_a', version },
      {
        credential_id: 'cred_a',
        access_key: 'sk_live_a',
        revoked_at: new Date().toISOString(),
      },
    );

  it('refuses a second event with the same aggregate version, rolling back its transaction', async () => {
    await db.transaction((m) => appendEvents(m, [revoked(1)]));
    const attempt = db.transaction(async (m) => {
      await m.query(`INSERT INTO auth.organizations (id, name, scopes, created_at, version) VALUES ('org_x', 'x', '{}', now(), 1)`);
      await appendEvents(m, [revoked(1)]);
    });
    await expect(attempt).rejects.toBeInstanceOf(ConcurrencyConflict);
    await expect(attempt).rejects.toMatchObject({ code: 'concurrent_modification' });
    expect(await db.query(`SELECT id FROM auth.organizations WHERE id = 'org_x'`)).toEqual([]);
    await db.transaction((m) => appendEvents(m, [revoked(2)]));
    const versions = (await db.query(`SELECT version FROM auth.events WHERE aggregate_id = 'cred_a' ORDER BY seq`)) as { version: number }[];
    expect(versions.map((v) => v.version)).toEqual([1, 2]);
  });

  it('stores the envelope as given, unpublished', async () => {
    const event = revoked(3);
    await db.transaction((m) => appendEvents(m, [event]));
    const [row] = (await db.query('SELECT type, org_id, occurred_at, payload, published_at FROM auth.events WHERE event_id = $1', [event.event_id])) as {
      type: string;
      org_id: string;
      occurred_at: Date;
      payload: unknown;
      published_at: Date | null;
    }[];
    expect(row).toEqual({ type: event.type, org_id: 'org_a', occurred_at: new Date(event.occurred_at), payload: event.payload, published_at: null });
  });
});
