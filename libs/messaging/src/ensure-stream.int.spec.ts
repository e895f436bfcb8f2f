import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { connectNats } from './connect-nats';
import { ensureConsumer } from './ensure-consumer';
import { ensureStream } from './ensure-stream';

describe('ensureStream and ensureConsumer against NATS', () => {
  let infra: IsolatedInfra;
  let nc: NatsConnection;
  let jsm: JetStreamManager;

  beforeAll(async () => {
    infra = await isolatedInfra({ migrate: false });
    nc = await connectNats(infra.natsUrl, 'test');
    jsm = await jetstreamManager(nc);
  });
  afterAll(async () => {
    await nc?.close();
    await infra?.cleanup();
  });

  const spec = () => ({
    name: infra.bus.stream('THINGS'),
    subjects: [infra.bus.subject('things.>')],
    maxAgeSeconds: 3600,
    duplicateWindowSeconds: 60,
  });

  it('creates a stream once and leaves it alone when nothing changed', async () => {
    const created = await ensureStream(jsm, spec());
    const again = await ensureStream(jsm, spec());
    expect(again.created).toEqual(created.created);
    expect(again.config.subjects).toEqual([infra.bus.subject('things.>')]);
  });

  it('declares from several replicas at once without failing', async () => {
    const racing = { ...spec(), name: infra.bus.stream('RACE'), subjects: [infra.bus.subject('race.>')] };
    const results = await Promise.all([1, 2, 3].map(() => ensureStream(jsm, racing)));
    expect(new Set(results.map((r) => r.config.name))).toEqual(new Set([racing.name]));
  });

  it('brings subjects up to date on an existing stream', async () => {
    const wider = { ...spec(), subjects: [infra.bus.subject('things.>'), infra.bus.subject('stuff.>')] };
    const updated = await ensureStream(jsm, wider);
    expect(updated.config.subjects?.sort()).toEqual(wider.subjects.sort());
  });

  it('creates with the replica count it is given, and a count this server cannot hold fails loudly', async () => {
    const r1 = { ...spec(), name: infra.bus.stream('R1'), subjects: [infra.bus.subject('r1.>')] };
    expect((await ensureStream(jsm, r1, { replicas: 1 })).config.num_replicas).toBe(1);
    // Without a count, an existing stream keeps its own.
    expect((await ensureStream(jsm, r1)).config.num_replicas).toBe(1);
    // This machine runs one NATS server: a stream of three replicas cannot be created.
    const r3 = { ...spec(), name: infra.bus.stream('R3'), subjects: [infra.bus.subject('r3.>')] };
    await expect(ensureStream(jsm, r3, { replicas: 3 })).rejects.toThrow(new RegExp(`cannot create stream ${r3.name}: replicas > 1 not supported`));
  });

  it('declares a durable pull consumer idempotently and updates its limits', async () => {
    const consumer = { stream: spec().name, durable: 'worker', ackWaitSeconds: 30, maxDeliver: 5, maxAckPending: 100, backoffSeconds: [1, 5] };
    const first = await ensureConsumer(jsm, consumer);
    expect(first.config.durable_name).toBe('worker');
    expect(first.config.ack_policy).toBe('explicit');
    const second = await ensureConsumer(jsm, { ...consumer, maxAckPending: 200 });
    expect(second.config.max_ack_pending).toBe(200);
    expect(second.created).toEqual(first.created);
  });
});
