import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { platformStreams } from '@meter/contracts';
import { connectNats, ensureStream } from '@meter/messaging';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { publishMeters } from '../scripts/demo/publish-meters';
import { DEMO_METERS } from '../scripts/demo/simulated-meters';

/** The demo's publishing step against the real NATS: the subjects and payloads of contract section 3, deduplicated. */
describe('npm run demo: publishing the simulated meters', () => {
  let infra: IsolatedInfra;
  let nc: NatsConnection;
  const now = Date.parse('2026-11-21T15:42:00Z');

  beforeAll(async () => {
    infra = await isolatedInfra({ migrate: false });
    nc = await connectNats(infra.natsUrl, 'demo-test');
    await ensureStream(await jetstreamManager(nc), platformStreams(infra.bus).readings);
  });

  afterAll(async () => {
    await nc?.drain();
    await infra?.cleanup();
  });

  it('registers each device, then publishes its readings a day per message, once even when run twice', async () => {
    const meters = DEMO_METERS.slice(0, 2);
    const count = await publishMeters(nc, infra.bus, 'org_demo', meters, 3, now);
    expect(count).toBe(2 * (3 * 24 + 1));
    await publishMeters(nc, infra.bus, 'org_demo', meters, 3, now);

    const jsm = await jetstreamManager(nc);
    const stream = platformStreams(infra.bus).readings.name;
    const info = await jsm.streams.info(stream);
    expect(info.state.messages).toBe(2 * (1 + 4)); // a device message and ceil(73 / 24) reading messages each

    const device = (await jsm.streams.getMessage(stream, { seq: 1 }))!;
    expect(device.subject).toBe(infra.bus.subject('meter.devices.org_demo.1001'));
    expect(device.json()).toMatchObject({ name: 'Flat 1A kitchen', channels: 1, time_zone: 'Europe/Paris', unit: 'm³', activated_at: '2026-11-18T15:42:00.000Z' });

    const readings = (await jsm.streams.getMessage(stream, { seq: 2 }))!;
    expect(readings.subject).toBe(infra.bus.subject('meter.readings.org_demo.1001'));
    const batch = readings.json<{ read_at: string; value: string; channel: number }[]>();
    expect(batch).toHaveLength(24);
    expect(batch[0]).toEqual({ read_at: '2026-11-18T15:00:00.000Z', value: '100.000', channel: 1 });
  });
});
