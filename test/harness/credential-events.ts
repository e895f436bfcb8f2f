import { randomBytes, randomUUID } from 'node:crypto';
import type { JetStreamClient } from '@nats-io/jetstream';
import { authEventSubject, credentialSecretAad, type AuthEvent, type BusNames, type CredentialScope } from '@meter/contracts';
import { associatedData, seal, type KeyRing } from '@meter/crypto';

export interface SeededCredential {
  id: string;
  orgId: string;
  accessKey: string;
  secretKey: string;
  type: 'secret' | 'public';
  version: number;
}

export interface SeedCredentialOptions {
  orgId?: string;
  type?: 'secret' | 'public';
  scopes?: string[];
  cidrs?: string[];
  accessKey?: string;
  secretKey?: string;
  name?: string;
}

/**
 * A `credential.created` event exactly as the auth service emits it (secret
 * sealed under the ring with the org and credential ids as associated data),
 * for tests and benchmarks that feed a gateway without the auth service.
 */
export function credentialCreatedEvent(ring: KeyRing, options: SeedCredentialOptions = {}): { event: AuthEvent; credential: SeededCredential } {
  const type = options.type ?? 'secret';
  const id = `cred_${randomBytes(6).toString('hex')}`;
  const orgId = options.orgId ?? `org_${randomBytes(4).toString('hex')}`;
  const accessKey = options.accessKey ?? `${type === 'secret' ? 'sk_live_' : 'pk_live_'}${randomBytes(12).toString('hex')}`;
  const secretKey = options.secretKey ?? randomBytes(24).toString('base64url');
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
      name: options.name ?? 'test',
      type,
      access_key: accessKey,
      scopes: (options.scopes ?? ['meter:consumption:read']) as CredentialScope[],
      allowed_cidrs: options.cidrs ?? [],
      sealed_secret: type === 'secret' ? seal(ring, secretKey, associatedData(credentialSecretAad(orgId, id))) : null,
      created_at: now,
    },
  };
  return { event, credential: { id, orgId, accessKey, secretKey, type, version: 1 } };
}

/** Publishes an auth event the way the auth relay does: its subject, `Nats-Msg-Id` = event id. */
export async function publishAuthEvent(js: JetStreamClient, bus: BusNames, event: AuthEvent): Promise<void> {
  await js.publish(bus.subject(authEventSubject(event.type)), JSON.stringify(event), { msgID: event.event_id });
}
