import { randomBytes } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { BusNames, platformStreams } from '@meter/contracts';
import type { KeyRing } from '@meter/crypto';
import { connectNats, ensureStream } from '@meter/messaging';
import { credentialCreatedEvent, publishAuthEvent } from '../../test/harness/credential-events';

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
