import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { platformStreams } from '@meter/contracts';
import { INSECURE_TEST_PASSWORD_PARAMS } from '@meter/crypto';
import { connectNats, ensureStream, OutboxRelay as TableOutboxRelay, type OutboxRelayOptions } from '@meter/messaging';
import { eventually, isolatedInfra, type IsolatedInfra } from '@meter/testing';
import type { DataSource } from 'typeorm';
import { streamMessages } from '@meter/testing/stream-messages';
import { authDataSource } from '../auth-data-source';
import { createOrganization } from '../organizations/create-organization';
import { jetStreamPublisher } from './jetstream-publisher';
import type { StoredEventRow } from './event-store';
import { AUTH_EVENTS_OUTBOX, publishStoredEvent, type EventPublisher } from './outbox-relay';

/** The relay OutboxRelayService runs, over the auth event table, with the publisher a test gives it. */
class OutboxRelay extends TableOutboxRelay<StoredEventRow> {
  constructor(dataSource: DataSource, publish: EventPublisher, options: OutboxRelayOptions = {}) {
    super(dataSource, AUTH_EVENTS_OUTBOX, publishStoredEvent(publish), options);
  }
}

describe('outbox relay against Postgres and JetStream', () => {
  let infra: IsolatedInfra;
  let db: DataSource;
  let nc: NatsConnection;
  let js: JetStreamClient;
  let publish: EventPublisher;
  let stream: string;
  let n = 0;

  beforeAll(async () => {
    infra = await isolatedInfra();
    db = await authDataSource({ DATABASE_URL: infra.databaseUrl }, 'relay-test');
    nc = await connectNats(infra.natsUrl, 'relay-test');
    js = jetstream(nc);
    const spec = platformStreams(infra.bus).authEvents;
    stream = spec.name;
    await ensureStream(await jetstreamManager(nc), spec);
    publish = jetStreamPublisher(js, infra.bus);
  });

  afterAll(async () => {
    await nc?.close();
    await db?.destroy();
    await infra?.cleanup();
  });

  /** Commits two events (organization.created, admin.created) and returns their ids. */
  async function commitEvents(): Promise<string[]> {
    n += 1;
    const { orgId } = await createOrganization(
      db,
      { name: `relay ${n}`, adminEmail: `relay${n}@example.test`, adminPassword: 'password 123' },
      INSECURE_TEST_PASSWORD_PARAMS,
    );
    const rows = (await db.query('SELECT event_id FROM auth.events WHERE org_id = $1 ORDER BY seq', [orgId])) as { event_id: string }[];
    return rows.map((r) => r.event_id);
  }

  const unpublished = async () => Number(((await db.query('SELECT count(*) AS n FROM auth.events WHERE published_at IS NULL')) as { n: string }[])[0].n);
  const copiesOf = async (ids: string[]) => {
    const messages = await streamMessages(infra.natsUrl, stream);
    return ids.map((id) => messages.filter((m) => m.msgId === id).length);
  };

  it('keeps an event whose publish failed, and delivers it once after a restart', async () => {
    const ids = await commitEvents();
    const failing = new OutboxRelay(db, async () => {
      throw new Error('bus unreachable');
    });
    await expect(failing.drain()).rejects.toThrow('bus unreachable');
    expect(await unpublished()).toBe(2);
    expect(await copiesOf(ids)).toEqual([0, 0]);

    const restarted = new OutboxRelay(db, publish);
    expect(await restarted.drain()).toBe(2);
    expect(await unpublished()).toBe(0);
    expect(await copiesOf(ids)).toEqual([1, 1]);
  });

  it('crash after the bus acknowledged but before marking: republished on restart, stored exactly once', async () => {
    const ids = await commitEvents();
    // Publishes for real, then dies before the relay can record it: what a kill between ack and UPDATE leaves.
    const crashing = new OutboxRelay(db, async (event) => {
      await publish(event);
      throw new Error('killed after publish');
    });
    await expect(crashing.drain()).rejects.toThrow('killed after publish');
    expect(await unpublished()).toBe(2);
    expect(await copiesOf(ids)).toEqual([1, 0]);

    const restarted = new OutboxRelay(db, publish);
    expect(await restarted.drain()).toBe(2);
    expect(await unpublished()).toBe(0);
    expect(await copiesOf(ids)).toEqual([1, 1]);
  });

  it('publishes in log order and marks what was acknowledged before a failure', async () => {
    const first = await commitEvents();
    const second = await commitEvents();
    let calls = 0;
    const seen: string[] = [];
    const flaky = new OutboxRelay(db, async (event) => {
      calls += 1;
      if (calls === 3) throw new Error('third publish fails');
      seen.push(event.event_id);
      await publish(event);
    });
    await expect(flaky.drain()).rejects.toThrow('third publish fails');
    expect(seen).toEqual(first);
    expect(await unpublished()).toBe(2);
    await new OutboxRelay(db, publish).drain();
    const messages = await streamMessages(infra.natsUrl, stream);
    const order = messages.map((m) => m.msgId);
    expect(order.slice(-4)).toEqual([...first, ...second]);
  });

  it('wakes on the commit notification when running', async () => {
    const relay = new OutboxRelay(db, publish, { databaseUrl: infra.databaseUrl, pollMs: 60_000 });
    await relay.start();
    try {
      // Let the first pass (which finds nothing) finish, so only LISTEN can deliver what follows.
      await eventually(async () => (await unpublished()) === 0, 5000, 'idle');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const ids = await commitEvents();
      await eventually(async () => (await copiesOf(ids)).every((c) => c === 1), 5000, 'events published by the notified relay');
    } finally {
      await relay.stop();
    }
  });

  it('listens again after losing its LISTEN connection', async () => {
    const relay = new OutboxRelay(db, publish, { databaseUrl: infra.databaseUrl, pollMs: 60_000 });
    const listeners = async () =>
      (
        (await db.query(`SELECT pid FROM pg_stat_activity WHERE application_name = 'auth-outbox-listener' AND datname = current_database()`)) as {
          pid: number;
        }[]
      ).map((r) => r.pid);
    await relay.start();
    try {
      const [first] = await eventually(async () => ((await listeners()).length === 1 ? listeners() : false), 5000, 'listener connected');
      await db.query('SELECT pg_terminate_backend($1)', [first]);
      await eventually(
        async () => {
          const now = await listeners();
          return now.length === 1 && now[0] !== first;
        },
        15_000,
        'listener reconnected',
      );
      await eventually(async () => (await unpublished()) === 0, 5000, 'idle');
      const ids = await commitEvents();
      await eventually(async () => (await copiesOf(ids)).every((c) => c === 1), 5000, 'events published after the reconnect');
    } finally {
      await relay.stop();
    }
  });

  it('lets only one of two running relays publish at a time, still exactly once', async () => {
    const a = new OutboxRelay(db, publish);
    const b = new OutboxRelay(db, publish);
    const ids = [...(await commitEvents()), ...(await commitEvents())];
    await Promise.all([a.drain(), b.drain()]);
    await a.drain();
    expect(await unpublished()).toBe(0);
    expect(await copiesOf(ids)).toEqual([1, 1, 1, 1]);
  });
});
