import { jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceMessage, platformStreams, readingMessage } from '@meter/contracts';
import { connectNats, ensureStream } from '@meter/messaging';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { plannedReadings, publishSimulatedMeters, type SimulationPlan } from './publish-simulated-meters';
import { simulatedMeter, simulatedReadings } from './simulated-meter';

const HOUR = 3600_000;

describe('publishSimulatedMeters against the real JetStream', () => {
  let infra: IsolatedInfra;
  let nc: NatsConnection;
  let jsm: JetStreamManager;

  beforeAll(async () => {
    infra = await isolatedInfra({ migrate: false });
    nc = await connectNats(infra.natsUrl, 'publish-simulated-test');
    jsm = await jetstreamManager(nc);
    await ensureStream(jsm, platformStreams(infra.bus).readings);
  });

  afterAll(async () => {
    await nc?.drain();
    await infra?.cleanup();
  });

  it('registers each meter, then publishes its readings in arrays the ingest schema accepts, reporting the last sequence and its progress', async () => {
    const now = Date.parse('2026-11-21T15:42:10Z');
    const acknowledged: number[] = [];
    const plan: SimulationPlan = {
      orgId: 'org_sim',
      meters: 2,
      firstId: 7,
      days: 3,
      intervalMs: HOUR,
      zone: 'Europe/Madrid',
      perMessage: 30,
      seed: 4,
      pricePerUnit: 2.5,
      now,
    };
    const summary = await publishSimulatedMeters(jetstream(nc), infra.bus, plan, (n) => acknowledged.push(n));
    const perMeter = 3 * 24 + 1;
    expect(summary).toMatchObject({ readings: 2 * perMeter, messages: 2 * (1 + Math.ceil(perMeter / 30)) });
    expect(plannedReadings(plan)).toBe(summary.readings);
    // one report per readings message acknowledged, growing to the whole
    expect(acknowledged).toHaveLength(2 * Math.ceil(perMeter / 30));
    expect(acknowledged.every((n, i) => i === 0 || n > acknowledged[i - 1])).toBe(true);
    expect(acknowledged.at(-1)).toBe(summary.readings);
    expect(new Date(summary.to).toISOString()).toBe('2026-11-21T15:00:00.000Z');
    expect(summary.to - summary.from).toBe(3 * 24 * HOUR);

    const stream = platformStreams(infra.bus).readings.name;
    const info = await jsm.streams.info(stream);
    expect(info.state.messages).toBe(summary.messages);
    expect(summary.lastSequence).toBe(info.state.last_seq);

    const first = (await jsm.streams.getMessage(stream, { seq: 1 }))!;
    expect(first.subject).toBe(infra.bus.subject('meter.devices.org_sim.7'));
    expect(deviceMessage.parse(first.json())).toMatchObject({ time_zone: 'Europe/Madrid', price_per_unit: 2.5, activated_at: summary.from });

    const batches = [];
    for (let seq = 2; seq <= 1 + Math.ceil(perMeter / 30); seq++) {
      const message = (await jsm.streams.getMessage(stream, { seq }))!;
      expect(message.subject).toBe(infra.bus.subject('meter.readings.org_sim.7'));
      batches.push(...readingMessage.parse(message.json()));
    }
    const expected = simulatedReadings(simulatedMeter(7, 'Europe/Madrid', 4), summary.from, summary.to, HOUR);
    expect(batches.map((r) => ({ readAt: r.read_at, value: r.value }))).toEqual(expected);

    const secondDevice = (await jsm.streams.getMessage(stream, { seq: 2 + Math.ceil(perMeter / 30) }))!;
    expect(secondDevice.subject).toBe(infra.bus.subject('meter.devices.org_sim.8'));
  });
});
