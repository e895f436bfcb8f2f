import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import { Metrics } from '@meter/http';
import { createDataSource } from '@meter/persistence';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { countBacklog } from './backlog-counts';
import { BacklogMetrics } from './backlog-metrics';

describe('the integrations backlog against Postgres', () => {
  let infra: IsolatedInfra;
  let db: DataSource;

  beforeAll(async () => {
    infra = await isolatedInfra();
    db = await createDataSource({ schema: 'integrations', url: infra.databaseUrl, poolSize: 2, applicationName: 'backlog-test' }).initialize();
    const endpoint = randomUUID();
    await db.query(
      `INSERT INTO integrations.webhook_endpoints (id, org_id, url, events, status, sealed_secret) VALUES ($1, 'org', 'https://example.test/hook', '{alert.raised}', 'enabled', 'sealed')`,
      [endpoint],
    );
    for (const [status, minutesAgo] of [
      ['pending', 10],
      ['pending', 1],
      ['delivered', 30],
      ['failed', 40],
    ] as const) {
      const event = randomUUID();
      await db.query(`INSERT INTO integrations.webhook_events (event_id, org_id, type, body, received_at) VALUES ($1, 'org', 'alert.raised', '{}', now())`, [
        event,
      ]);
      await db.query(
        `INSERT INTO integrations.webhook_deliveries (id, endpoint_id, org_id, event_id, type, status, attempts, max_attempts, created_at, next_attempt_at)
         VALUES ($1, $2, 'org', $3, 'alert.raised', $4, 0, 8, now() - make_interval(mins => $5), CASE WHEN $4 = 'pending' THEN now() END)`,
        [randomUUID(), endpoint, event, status, minutesAgo],
      );
    }
  });

  afterAll(async () => {
    await db?.destroy();
    await infra?.cleanup();
  });

  it('counts pending deliveries, the oldest one’s age and open export runs', async () => {
    const backlog = await countBacklog(db);
    expect(backlog).toMatchObject({ webhookPending: 2, exportQueued: 0, exportRunning: 0 });
    expect(backlog.webhookOldestPendingSeconds).toBeGreaterThanOrEqual(600);
    expect(backlog.webhookOldestPendingSeconds).toBeLessThan(1800);
  });

  it('shows them on /metrics when scraped', async () => {
    const metrics = new Metrics();
    new BacklogMetrics(metrics, db);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^meter_webhook_deliveries_pending 2$/m);
    expect(text).toMatch(/^meter_export_runs_open\{status="queued"\} 0$/m);
    expect(text).toMatch(/^meter_webhook_oldest_pending_seconds 6\d\d/m);
  });
});
