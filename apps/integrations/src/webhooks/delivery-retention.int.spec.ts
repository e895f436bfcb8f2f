import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import { ADVISORY_LOCKS, createDataSource } from '@meter/persistence';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { pruneWebhookLog } from './delivery-retention';

const RETENTION_DAYS = 30;

describe('the webhook delivery log retention against Postgres', () => {
  let infra: IsolatedInfra;
  let db: DataSource;
  let endpointId: string;

  /** An event received `daysAgo` days ago. */
  const event = async (daysAgo: number) => {
    const id = randomUUID();
    await db.query(
      `INSERT INTO integrations.webhook_events (event_id, org_id, type, body, received_at) VALUES ($1, 'org', 'alert.raised', '{}', now() - make_interval(days => $2))`,
      [id, daysAgo],
    );
    return id;
  };
  /** A delivery of `eventId` created `createdDaysAgo` days ago and last attempted `attemptDaysAgo` days ago (null: never). */
  const delivery = async (eventId: string, status: 'pending' | 'delivered' | 'failed', createdDaysAgo: number, attemptDaysAgo: number | null) => {
    const id = randomUUID();
    await db.query(
      `INSERT INTO integrations.webhook_deliveries (id, endpoint_id, org_id, event_id, type, status, attempts, max_attempts, created_at, last_attempt_at, next_attempt_at)
       VALUES ($1, $2, 'org', $3, 'alert.raised', $4, $5, 8, now() - make_interval(days => $6),
         now() - make_interval(days => $7::int), CASE WHEN $4 = 'pending' THEN now() END)`,
      [id, endpointId, eventId, status, attemptDaysAgo === null ? 0 : 1, createdDaysAgo, attemptDaysAgo],
    );
    return id;
  };
  const ids = async (table: 'webhook_deliveries' | 'webhook_events', column: 'id' | 'event_id') =>
    ((await db.query(`SELECT ${column} AS id FROM integrations.${table}`)) as { id: string }[]).map((r) => r.id).sort();

  beforeAll(async () => {
    infra = await isolatedInfra();
    db = await createDataSource({ schema: 'integrations', url: infra.databaseUrl, poolSize: 3, applicationName: 'retention-test' }).initialize();
  });
  afterAll(async () => {
    await db?.destroy();
    await infra?.cleanup();
  });
  beforeEach(async () => {
    await db.query('TRUNCATE integrations.webhook_deliveries, integrations.webhook_events, integrations.webhook_endpoints');
    endpointId = randomUUID();
    await db.query(
      `INSERT INTO integrations.webhook_endpoints (id, org_id, url, events, status, sealed_secret) VALUES ($1, 'org', 'https://example.test/hook', '{alert.raised}', 'enabled', 'sealed')`,
      [endpointId],
    );
  });

  it('deletes finished deliveries and unreferenced events older than the retention, and keeps pending, recent and referenced ones', async () => {
    // Gone: finished long ago, and the events only they referred to, or none ever did.
    await delivery(await event(40), 'delivered', 40, 40);
    await delivery(await event(45), 'failed', 45, 44);
    await event(31);
    // Kept: a pending delivery however old (a disabled endpoint's), and its event.
    const pendingEvent = await event(90);
    const pending = await delivery(pendingEvent, 'pending', 90, 80);
    const neverAttemptedEvent = await event(60);
    const neverAttempted = await delivery(neverAttemptedEvent, 'pending', 60, null);
    // Kept: created long ago but retried recently (its last change counts), with its event.
    const retriedEvent = await event(50);
    const retried = await delivery(retriedEvent, 'delivered', 50, 2);
    // Kept: finished within the retention; an old event one of them still refers to.
    const recentEvent = await event(1);
    const recent = await delivery(recentEvent, 'failed', 1, 1);
    const sharedEvent = await event(40);
    await delivery(sharedEvent, 'delivered', 40, 40);
    const otherEndpoint = randomUUID();
    await db.query(
      `INSERT INTO integrations.webhook_endpoints (id, org_id, url, events, status, sealed_secret) VALUES ($1, 'org', 'https://example.test/b', '{alert.raised}', 'enabled', 'sealed')`,
      [otherEndpoint],
    );
    const sharedRecent = randomUUID();
    await db.query(
      `INSERT INTO integrations.webhook_deliveries (id, endpoint_id, org_id, event_id, type, status, attempts, max_attempts, created_at, last_attempt_at)
       VALUES ($1, $2, 'org', $3, 'alert.raised', 'delivered', 1, 8, now() - interval '40 days', now() - interval '3 days')`,
      [sharedRecent, otherEndpoint, sharedEvent],
    );
    // Kept: an unreferenced event younger than the retention (an event no endpoint subscribed to).
    const youngOrphan = await event(29);

    const deleted: [string, number][] = [];
    const result = await pruneWebhookLog(db, { retentionDays: RETENTION_DAYS, onDeleted: (table, rows) => deleted.push([table, rows]) });

    expect(result).toEqual({ deliveries: 3, events: 3, finished: true });
    expect(deleted).toEqual([
      ['deliveries', 3],
      ['events', 3],
    ]);
    expect(await ids('webhook_deliveries', 'id')).toEqual([pending, neverAttempted, retried, recent, sharedRecent].sort());
    expect(await ids('webhook_events', 'event_id')).toEqual([pendingEvent, neverAttemptedEvent, retriedEvent, recentEvent, sharedEvent, youngOrphan].sort());

    // A second pass finds nothing more.
    expect(await pruneWebhookLog(db, { retentionDays: RETENTION_DAYS })).toEqual({ deliveries: 0, events: 0, finished: true });
  });

  it('works through a backlog in batches, past events that pending deliveries still need', async () => {
    await db.query(
      `WITH e AS (
         INSERT INTO integrations.webhook_events (event_id, org_id, type, body, received_at)
         SELECT gen_random_uuid(), 'org', 'alert.raised', '{}', now() - interval '100 days' + i * interval '1 minute' FROM generate_series(1, 23) i
         RETURNING event_id, received_at)
       INSERT INTO integrations.webhook_deliveries (id, endpoint_id, org_id, event_id, type, status, attempts, max_attempts, created_at, last_attempt_at)
       SELECT gen_random_uuid(), $1, 'org', event_id, 'alert.raised', 'delivered', 1, 8, received_at, received_at FROM e`,
      [endpointId],
    );
    // Interleaved with those: old events without deliveries, and old events whose deliveries are still pending.
    await db.query(
      `INSERT INTO integrations.webhook_events (event_id, org_id, type, body, received_at)
       SELECT gen_random_uuid(), 'org', 'alert.raised', '{}', now() - interval '100 days' + i * interval '1 minute' + interval '1 second' FROM generate_series(1, 9) i`,
    );
    const kept: string[] = [];
    for (let i = 0; i < 6; i++) {
      const id = await event(100 - i * 10);
      await delivery(id, 'pending', 100 - i * 10, null);
      kept.push(id);
    }

    const batches: [string, number][] = [];
    const result = await pruneWebhookLog(db, { retentionDays: RETENTION_DAYS, batchSize: 4, onDeleted: (table, rows) => batches.push([table, rows]) });

    expect(result).toEqual({ deliveries: 23, events: 32, finished: true });
    expect(batches.filter(([table]) => table === 'deliveries').map(([, n]) => n)).toEqual([4, 4, 4, 4, 4, 3]);
    expect(batches.filter(([table]) => table === 'events').length).toBeGreaterThan(1);
    expect(await ids('webhook_events', 'event_id')).toEqual(kept.sort());
    expect(await db.query(`SELECT status FROM integrations.webhook_deliveries`)).toEqual(Array(6).fill({ status: 'pending' }));
  });

  it('leaves the work to the replica holding the lock, and stops between batches when the process stops', async () => {
    const old = await event(40);
    await delivery(old, 'delivered', 40, 40);
    const other = new Client({ connectionString: infra.databaseUrl });
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCKS.webhookRetention]);
      expect(await pruneWebhookLog(db, { retentionDays: RETENTION_DAYS })).toEqual({ deliveries: 0, events: 0, finished: false });
      await other.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCKS.webhookRetention]);
    } finally {
      await other.end();
    }
    expect(await pruneWebhookLog(db, { retentionDays: RETENTION_DAYS, stopped: () => true })).toEqual({ deliveries: 0, events: 0, finished: false });
    expect(await ids('webhook_events', 'event_id')).toEqual([old]);
    expect(await pruneWebhookLog(db, { retentionDays: RETENTION_DAYS })).toEqual({ deliveries: 1, events: 1, finished: true });
  });
});
