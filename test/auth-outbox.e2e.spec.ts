import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformStreams } from '@meter/contracts';
import { eventually, freePort, isolatedInfra, TcpProxy, type IsolatedInfra } from '@meter/testing';
import type { DataSource } from 'typeorm';
import { authDataSource, call, login, newOrg, startAuth, streamMessages } from './auth-support';

describe('a crash between commit and publish loses no event', () => {
  let infra: IsolatedInfra;
  let db: DataSource;
  let nats: TcpProxy;

  beforeAll(async () => {
    infra = await isolatedInfra();
    db = await authDataSource({ DATABASE_URL: infra.databaseUrl }, 'auth-test');
    nats = await TcpProxy.to(infra.natsUrl, await freePort());
  });

  afterAll(async () => {
    await nats?.close();
    await db?.destroy();
    await infra?.cleanup();
  });

  it('an event committed while the bus is cut, then the process killed, arrives exactly once after a restart', async () => {
    const first = await startAuth(infra, { NATS_URL: nats.via(infra.natsUrl) });
    const org = await newOrg(db);
    const token = await login(first.base, org.email, org.password);

    await nats.cut();
    const created = await call(first.base, 'POST', '/org-api-credentials', {
      token,
      body: { name: 'during outage', type: 'secret', scopes: ['meter:consumption:read'] },
    });
    expect(created.status).toBe(201);
    const [event] = (await db.query(`SELECT event_id, published_at FROM auth.events WHERE aggregate_id = $1`, [created.body.id])) as {
      event_id: string;
      published_at: Date | null;
    }[];
    expect(event.published_at).toBeNull();
    first.process.signal('SIGKILL');
    await first.process.exited;
    await nats.open();

    const second = await startAuth(infra);
    try {
      await eventually(
        async () =>
          ((await db.query('SELECT published_at FROM auth.events WHERE event_id = $1', [event.event_id])) as { published_at: Date | null }[])[0]
            .published_at !== null,
        10_000,
        'event published after restart',
      );
      const messages = await streamMessages(infra.natsUrl, platformStreams(infra.bus).authEvents.name);
      expect(messages.filter((m) => m.msgId === event.event_id)).toHaveLength(1);
      // Nothing committed before the crash is missing from the stream.
      const ids = ((await db.query('SELECT event_id FROM auth.events ORDER BY seq')) as { event_id: string }[]).map((r) => r.event_id);
      expect(new Set(messages.map((m) => m.msgId))).toEqual(new Set(ids));
      expect(messages).toHaveLength(ids.length);
      const metrics = await (await fetch(`${second.base}/metrics`)).text();
      expect(metrics).toMatch(/^meter_auth_outbox_published_total [1-9]/m);
      expect(metrics).toMatch(/^meter_auth_outbox_oldest_pending_seconds 0$/m);
      const ready = (await (await fetch(`${second.base}/readyz`)).json()) as { checks: Record<string, { status: string }> };
      expect(ready.checks.outbox.status).toBe('up');
    } finally {
      await second.process.stop();
    }
  });
});
