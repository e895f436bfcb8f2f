import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { NatsConnection } from '@nats-io/nats-core';
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import { platformStreams, type AuthEvent, type BusNames } from '@meter/contracts';
import { formatKeyRing, generateKey, parseKeyRing, sodiumReady, type KeyRing } from '@meter/crypto';
import { connectNats, ensureStream } from '@meter/messaging';
import { signRequest } from '@meter/signing';
import { credentialCreatedEvent, publishAuthEvent, type SeedCredentialOptions, type SeededCredential } from './harness/credential-events';

/** Test helpers shared by the gateway's end-to-end files: auth events on the bus and exact HTTP requests. */

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

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): Record<string, unknown>;
}

/** One HTTP/1.1 request whose target and body bytes go on the wire exactly as given. */
export function rawRequest(
  port: number,
  options: { method?: string; target: string; headers?: Record<string, string>; body?: Buffer | string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : Buffer.from(options.body);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.target,
        headers: { ...(body ? { 'content-length': String(body.length) } : {}), ...options.headers },
        timeout: 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) as Record<string, unknown> });
        });
      },
    );
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.end(body);
  });
}

/** A request signed for `credential` now (or at `timestamp`), sent byte for byte. */
export function signedRequest(
  port: number,
  credential: Pick<TestCredential, 'accessKey' | 'secretKey'>,
  options: { method?: string; target: string; body?: string; headers?: Record<string, string>; timestamp?: number },
): Promise<RawResponse> {
  const method = options.method ?? 'GET';
  const { authorization } = signRequest({
    accessKey: credential.accessKey,
    secretKey: credential.secretKey,
    method,
    target: options.target,
    body: options.body,
    timestamp: options.timestamp,
  });
  return rawRequest(port, {
    method,
    target: options.target,
    body: options.body,
    headers: { authorization, ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
  });
}

export const nowSeconds = () => Math.floor(Date.now() / 1000);
