import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { connectNats } from './connect-nats';
import { ensureConsumer } from './ensure-consumer';
import { ensureStream } from './ensure-stream';
import { configuredStreamLimits } from './stream-limits';

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

  /** Publishes `count` messages of 1 KiB on the stream's subject; how many JetStream took. */
  async function publishKilobytes(subject: string, count: number): Promise<number> {
    const js = jetstream(nc);
    let taken = 0;
    for (let i = 0; i < count; i++) {
      if (
        await js.publish(subject, new Uint8Array(1024)).then(
          () => true,
          () => false,
        )
      )
        taken++;
    }
    return taken;
  }

  it("a byte limit with discard 'new' refuses what does not fit and keeps what it took", async () => {
    const full = { ...spec(), name: infra.bus.stream('FULL_NEW'), subjects: [infra.bus.subject('fullnew.>')] };
    const created = await ensureStream(jsm, full, { limits: { maxBytes: 8192, discard: 'new' } });
    expect([created.config.max_bytes, created.config.discard]).toEqual([8192, 'new']);
    const taken = await publishKilobytes(infra.bus.subject('fullnew.x'), 12);
    expect(taken).toBeGreaterThan(0);
    expect(taken).toBeLessThan(12);
    const state = (await jsm.streams.info(full.name)).state;
    expect([state.first_seq, state.messages]).toEqual([1, taken]);
    // Without limits an existing stream keeps its own; 0 lifts the limit.
    expect((await ensureStream(jsm, full)).config.max_bytes).toBe(8192);
    const lifted = await ensureStream(jsm, full, { limits: { maxBytes: 0, discard: 'old' } });
    expect([lifted.config.max_bytes, lifted.config.discard]).toEqual([-1, 'old']);
  });

  it("a byte limit with discard 'old' takes everything and drops the oldest", async () => {
    const rolling = { ...spec(), name: infra.bus.stream('FULL_OLD'), subjects: [infra.bus.subject('fullold.>')] };
    await ensureStream(jsm, rolling);
    const limited = await ensureStream(jsm, rolling, { limits: { maxBytes: 8192, discard: 'old' } });
    expect([limited.config.max_bytes, limited.config.discard]).toEqual([8192, 'old']);
    expect(await publishKilobytes(infra.bus.subject('fullold.x'), 12)).toBe(12);
    const state = (await jsm.streams.info(rolling.name)).state;
    expect(state.last_seq).toBe(12);
    expect(state.first_seq).toBeGreaterThan(1);
    expect(state.bytes).toBeLessThanOrEqual(8192);
  });

  it('configuration limits READINGS (discard new unless told) and DEAD_LETTERS (discard old)', () => {
    const limits = configuredStreamLimits({ NATS_READINGS_MAX_BYTES: 5e9, NATS_READINGS_DISCARD: 'new', NATS_DEAD_LETTERS_MAX_BYTES: 0 }, infra.bus);
    expect(limits.get(infra.bus.stream('READINGS'))).toEqual({ maxBytes: 5e9, discard: 'new' });
    expect(limits.get(infra.bus.stream('DEAD_LETTERS'))).toEqual({ maxBytes: 0, discard: 'old' });
    expect(limits.get(infra.bus.stream('AUTH_EVENTS'))).toBeUndefined();
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
