import { randomBytes } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { BusNames, deviceMessage, platformStreams } from '@meter/contracts';
import type { KeyRing } from '@meter/crypto';
import { connectNats, ensureStream } from '@meter/messaging';
import { credentialCreatedEvent, publishAuthEvent } from '../../test/harness/credential-events';
import { seedReadModel } from '../shared/read-model-seed';

/** Publishes a credential.created event the way the auth relay does, so the gateway learns a credential without the auth service. */
export async function seedCredential(natsUrl: string, bus: BusNames, ring: KeyRing) {
  const nc = await connectNats(natsUrl, 'bench-gateway');
  try {
    await ensureStream(await jetstreamManager(nc), platformStreams(bus).authEvents);
    const { event, credential } = credentialCreatedEvent(ring, { orgId: `bench_${randomBytes(4).toString('hex')}`, name: 'bench' });
    await publishAuthEvent(jetstream(nc), bus, event);
    const { accessKey, secretKey, orgId } = credential;
    return { accessKey, secretKey, orgId };
  } finally {
    await nc.drain();
  }
}

/** The bench's streams go when it ends; its Redis keys expire within a minute on their own. */
export async function removeStreams(natsUrl: string, bus: BusNames): Promise<void> {
  const nc = await connectNats(natsUrl, 'bench-gateway-cleanup');
  try {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.delete(platformStreams(bus).authEvents.name).catch(() => false);
  } finally {
    await nc.drain();
  }
}

/** Devices of the organization in the read model (through ingest's writer), so `GET /meter/v1/devices` answers a real page. */
export async function seedDevices(databaseUrl: string, orgId: string, count: number): Promise<void> {
  const devices = Array.from({ length: count }, (_, i) => {
    const d = i + 1;
    const device = deviceMessage.parse({ name: `Meter ${d}`, channels: 1 + (d % 2), activated_at: new Date(Date.UTC(2026, 0, 1 + d)).toISOString() });
    return { orgId, deviceId: d, seq: d, receivedAt: Date.now(), device };
  });
  await seedReadModel(databaseUrl, [{ devices }]);
}
