import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BusNames, INTEGRATIONS_QUEUE_GROUP, integrationsReply, integrationsSubject, outboundEventSubject, platformStreams } from '@meter/contracts';
import { ensureConsumer, ensureStream, requestRpc, RpcServer } from '@meter/messaging';
import {
  isolatedInfra,
  natsServerBinary,
  PrivateNats,
  requestError,
  startReadyApp,
  subscribeOutcome,
  type IsolatedInfra,
  type NatsUser,
  type PlatformProcess,
} from '@meter/testing';

const DENIED_PUBLISH = /Permissions Violation for Publish/;
const DENIED_SUBSCRIPTION = /Permissions Violation for Subscription/;

/**
 * The integrations process, the management requests auth sends it, outbound events and the
 * credential events under deploy/base/nats/vault-permissions.conf, on a private nats-server:
 * each process as deploy/ runs it (its user, its inbox prefix) does its work, and no process
 * can do another's.
 */
describe.skipIf(!natsServerBinary)('integrations, outbound and credential events under deploy/base/nats/vault-permissions.conf', () => {
  const bus = new BusNames('');
  const streams = platformStreams(bus);
  let infra: IsolatedInfra;
  let nats: PrivateNats;
  const processes: PlatformProcess[] = [];

  const as = (user: NatsUser) => nats.as(user, INBOX_PREFIX[user] ? { inboxPrefix: INBOX_PREFIX[user] } : {});
  /** The inbox prefixes deploy/ gives its processes (NATS_INBOX_PREFIX). */
  const INBOX_PREFIX: Partial<Record<NatsUser, string>> = { auth: '_INBOX_auth', integration: '_INBOX_integration' };
  const messages = async (nc: NatsConnection, stream: string) => (await (await jetstreamManager(nc)).streams.info(stream)).state.messages;

  beforeAll(async () => {
    infra = await isolatedInfra();
    nats = await PrivateNats.start({ jetstream: true });
  });

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await nats?.stop();
    await infra?.cleanup();
  });

  it('starts the integrations process, the gateway and ingest, each as its own user, to ready', async () => {
    const started = await Promise.all([
      startReadyApp('integrations', infra.env(nats.env('integration', INBOX_PREFIX.integration))),
      startReadyApp('gateway', infra.env(nats.env('gateway'))),
      startReadyApp('ingest', infra.env(nats.env('ingest'))),
    ]);
    processes.push(...started.map((s) => s.process));
    // Each declared its streams (the integrations process OUTBOUND_EVENTS) under its permissions.
    const auth = await as('auth');
    for (const stream of [streams.outboundEvents, streams.authEvents, streams.readings]) expect(await messages(auth, stream.name)).toBe(0);
  }, 120_000);

  it('lets auth ask the integrations process, which answers in its queue group, and nobody else ask or answer', async () => {
    const subject = integrationsSubject(bus, 'permissions.echo');
    const reply = integrationsReply(z.object({ echoed: z.string() }));
    const server = new RpcServer(await as('integration'), {
      queue: INTEGRATIONS_QUEUE_GROUP,
      service: 'integrations service',
      log: { error: () => undefined, warn: () => undefined },
    });
    server.serve('permissions.echo', subject, z.object({ text: z.string() }), reply, async (request) => ({ echoed: request.text }));
    expect(await requestRpc(await as('auth'), subject, { text: 'hello' }, reply, 2000)).toEqual({ ok: true, result: { echoed: 'hello' } });

    for (const user of ['gateway', 'ingest', 'vault', 'integration'] as const) {
      expect(await requestError(await as(user), subject), user).toMatch(new RegExp(`${DENIED_PUBLISH.source} to "${subject}"`));
    }
    for (const user of ['auth', 'gateway', 'ingest'] as const) {
      expect(await subscribeOutcome(await as(user), 'integrations.rpc.>', { queue: INTEGRATIONS_QUEUE_GROUP }), user).toMatch(DENIED_SUBSCRIPTION);
    }
    // The integrations process itself answers only in its queue group, so each request is answered once.
    expect(await subscribeOutcome(await as('integration'), 'integrations.rpc.>')).toMatch(DENIED_SUBSCRIPTION);
    expect(await subscribeOutcome(await as('integration'), 'integrations.rpc.>', { queue: 'other' })).toMatch(DENIED_SUBSCRIPTION);
    await server.drain();
  });

  it('lets the integrations process publish outbound events with acknowledgements and consume them through its durable consumer', async () => {
    const worker = await as('integration');
    const jsm = await jetstreamManager(worker);
    await ensureStream(jsm, streams.outboundEvents);
    const durable = 'PERMISSIONS_TEST';
    await ensureConsumer(jsm, { stream: streams.outboundEvents.name, durable, ackWaitSeconds: 30, maxDeliver: 5, maxAckPending: 100 });
    await ensureConsumer(jsm, { stream: streams.outboundEvents.name, durable, ackWaitSeconds: 20, maxDeliver: 5, maxAckPending: 100 }); // an update
    const js = jetstream(worker);
    const before = await messages(worker, streams.outboundEvents.name);
    const ack = await js.publish(bus.subject(outboundEventSubject('org_perm', 'export.succeeded')), '{}');
    expect(ack.stream).toBe(streams.outboundEvents.name);
    // Ingest publishes the alert events.
    const alert = await jetstream(await as('ingest')).publish(bus.subject(outboundEventSubject('org_perm', 'alert.raised')), '{}');
    expect(alert.seq).toBe(ack.seq + 1);

    const consumer = await js.consumers.get(streams.outboundEvents.name, durable);
    const received: string[] = [];
    for await (const message of await consumer.fetch({ max_messages: before + 2, expires: 5000 })) {
      received.push(message.subject);
      await message.ackAck();
    }
    expect(received.slice(-2)).toEqual(['events.org_perm.export.succeeded', 'events.org_perm.alert.raised']);
    expect((await jsm.consumers.info(streams.outboundEvents.name, durable)).num_ack_pending).toBe(0);
  });

  it('keeps the integrations process to its own subjects and streams', async () => {
    for (const subject of ['vault.>', 'vault.internal.open', '_INBOX_auth.>', 'auth.events.>', 'auth.credentials.lookup']) {
      expect(await subscribeOutcome(await as('integration'), subject), subject).toMatch(DENIED_SUBSCRIPTION);
    }
    expect(await requestError(await as('integration'), 'vault.rpc.list')).toMatch(/Permissions Violation for Publish to "vault.rpc.list"/);
    const js = jetstream(await as('integration'));
    for (const subject of ['auth.events.credential.created', 'vault.audit.entry.opened', 'meter.readings.org_perm.1']) {
      await expect(js.publish(subject, '{}'), subject).rejects.toThrow(DENIED_PUBLISH);
    }
    const jsm = await jetstreamManager(await as('integration'));
    await expect(jsm.streams.purge(streams.authEvents.name)).rejects.toThrow(DENIED_PUBLISH);
    await expect(jsm.streams.delete(streams.readings.name)).rejects.toThrow(DENIED_PUBLISH);
    await expect(jsm.streams.add({ name: 'INTEGRATION_OWN', subjects: ['integration.own.>'] })).rejects.toThrow(DENIED_PUBLISH);
  });

  it('lets only auth publish credential events, and nobody else remove them', async () => {
    const auth = await as('auth');
    await ensureStream(await jetstreamManager(auth), streams.authEvents);
    const subject = bus.subject('auth.events.credential.created');
    await jetstream(auth).publish(subject, '{"from":"auth"}');
    const count = await messages(auth, streams.authEvents.name);
    expect(count).toBeGreaterThan(0);

    for (const user of ['gateway', 'ingest'] as const) {
      await expect(jetstream(await as(user)).publish(subject, '{"forged":true}'), user).rejects.toThrow(DENIED_PUBLISH);
    }
    for (const user of ['gateway', 'ingest', 'vault', 'integration'] as const) {
      const jsm = await jetstreamManager(await as(user));
      await expect(jsm.streams.deleteMessage(streams.authEvents.name, 1), `${user} delete message`).rejects.toThrow(DENIED_PUBLISH);
      await expect(jsm.streams.purge(streams.authEvents.name), `${user} purge`).rejects.toThrow(DENIED_PUBLISH);
      await expect(jsm.streams.delete(streams.authEvents.name), `${user} delete`).rejects.toThrow(DENIED_PUBLISH);
    }
    const state = (await (await jetstreamManager(auth)).streams.info(streams.authEvents.name)).state;
    expect({ messages: state.messages, first: state.first_seq, deleted: state.num_deleted ?? 0 }).toEqual({ messages: count, first: 1, deleted: 0 });
  });
});
