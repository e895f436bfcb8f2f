import { randomBytes, randomUUID } from 'node:crypto';
import type { JetStreamClient } from '@nats-io/jetstream';
import { authEventSubject, credentialSecretAad, type BusNames } from '@meter/contracts';
import { associatedData, seal, type KeyRing } from '@meter/crypto';

/** Publishes a credential.created event as the auth service's relay would, for the gateway to learn. */
export async function publishCredential(js: JetStreamClient, bus: BusNames, ring: KeyRing, orgId: string) {
  const id = `cred_${randomBytes(6).toString('hex')}`;
  const accessKey = `sk_live_${randomBytes(12).toString('hex')}`;
  const secretKey = randomBytes(24).toString('base64url');
  const now = new Date().toISOString();
  const event = {
    event_id: randomUUID(),
    type: 'credential.created' as const,
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
  await js.publish(bus.subject(authEventSubject(event.type)), JSON.stringify(event), { msgID: event.event_id });
  return { accessKey, secretKey };
}
