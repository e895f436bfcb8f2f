import { randomBytes, randomUUID } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { authEventSubject, BusNames, credentialSecretAad, platformStreams, type AuthEvent } from '@meter/contracts';
import { associatedData, seal, type KeyRing } from '@meter/crypto';
import { connectNats, ensureStream } from '@meter/messaging';

/** Publishes a credential.created event the way the auth relay does, so the gateway learns a credential without the auth service. */
export async function seedCredential(natsUrl: string, bus: BusNames, ring: KeyRing) {
  const nc = await connectNats(natsUrl, 'bench-gateway');
  try {
    await ensureStream(await jetstreamManager(nc), platformStreams(bus).authEvents);
    const id = `cred_${randomBytes(6).toString('hex')}`;
    const orgId = `bench_${randomBytes(4).toString('hex')}`;
    const accessKey = `sk_live_${randomBytes(12).toString('hex')}`;
    const secretKey = randomBytes(24).toString('base64url');
    const now = new Date().toISOString();
    const event: AuthEvent = {
      event_id: randomUUID(),
      type: 'credential.created',
      aggregate_id: id,
      org_id: orgId,
      version: 1,
      occurred_at: now,
      payload: {
        credential_id: id,
        name: 'bench',
        type: 'secret',
        access_key: accessKey,
        scopes: ['meter:consumption:read'],
        allowed_cidrs: [],
        sealed_secret: seal(ring, secretKey, associatedData(credentialSecretAad(orgId, id))),
        created_at: now,
      },
    };
    await jetstream(nc).publish(bus.subject(authEventSubject(event.type)), JSON.stringify(event), { msgID: event.event_id });
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
