import { randomUUID } from 'node:crypto';
import type { NatsConnection } from '@nats-io/nats-core';
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { platformStreams, type AuthEvent, type BusNames } from '@meter/contracts';
import { formatKeyRing, generateKey, parseKeyRing, sodiumReady, type KeyRing } from '@meter/crypto';
import { connectNats, ensureStream } from '@meter/messaging';
import { credentialCreatedEvent, publishAuthEvent, type SeedCredentialOptions, type SeededCredential } from './credential-events';

/** A credential key ring of one fresh key, and its env text (CREDENTIAL_KEYRING). */
export async function testKeyRing(): Promise<{ ring: KeyRing; env: string }> {
  await sodiumReady();
  const env = formatKeyRing([generateKey('t1')]);
  return { ring: parseKeyRing(env), env };
}

export type TestCredential = SeededCredential;

/** Publishes auth events the way the auth service's relay does (subject, Nats-Msg-Id = event_id). */
export class AuthEvents {
  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly bus: BusNames,
    private readonly ring: KeyRing,
  ) {}

  static async connect(natsUrl: string, bus: BusNames, ring: KeyRing): Promise<AuthEvents> {
    const nc = await connectNats(natsUrl, 'gateway-test');
    await ensureStream(await jetstreamManager(nc), platformStreams(bus).authEvents);
    return new AuthEvents(nc, jetstream(nc), bus, ring);
  }

  async publish(event: AuthEvent): Promise<void> {
    await publishAuthEvent(this.js, this.bus, event);
  }

  async createCredential(options: SeedCredentialOptions = {}): Promise<TestCredential> {
    const { event, credential } = credentialCreatedEvent(this.ring, options);
    await this.publish(event);
    return credential;
  }

  async revoke(credential: TestCredential): Promise<void> {
    credential.version += 1;
    const now = new Date().toISOString();
    await this.publish({
      event_id: randomUUID(),
      type: 'credential.revoked',
      aggregate_id: credential.id,
      org_id: credential.orgId,
      version: credential.version,
      occurred_at: now,
      payload: { credential_id: credential.id, access_key: credential.accessKey, revoked_at: now },
    });
  }

  async setCidrs(credential: TestCredential, cidrs: string[]): Promise<void> {
    credential.version += 1;
    await this.publish({
      event_id: randomUUID(),
      type: 'credential.cidrs_changed',
      aggregate_id: credential.id,
      org_id: credential.orgId,
      version: credential.version,
      occurred_at: new Date().toISOString(),
      payload: { credential_id: credential.id, access_key: credential.accessKey, allowed_cidrs: cidrs },
    });
  }

  async close(): Promise<void> {
    await this.nc.drain().catch(() => this.nc.close());
  }
}
