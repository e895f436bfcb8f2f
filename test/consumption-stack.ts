import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { Client } from 'pg';
import { connectNats } from '@meter/messaging';
import { eventually, isolatedInfra, startReadyApp, type IsolatedInfra, type PlatformProcess } from '@meter/testing';
import { AuthEvents, testKeyRing, type TestCredential } from './gateway-support';

/**
 * Ingest and gateway processes on an isolated infra, with one credential per
 * organization asked for, a publisher of readings and device messages, and
 * a wait for what was published to be stored. The consumption e2e tests build
 * their meters on it.
 */
export interface ConsumptionStack {
  infra: IsolatedInfra;
  /** The gateway's port. */
  port: number;
  credentials: Record<string, TestCredential>;
  publish(orgId: string, kind: 'readings' | 'devices', deviceId: number, payload: unknown): Promise<unknown>;
  /** Waits until `readings` rows are stored and `device` carries its registered name. */
  stored(readings: number, device: { orgId: string; deviceId: number; name: string }): Promise<void>;
  stop(): Promise<void>;
}

export async function startConsumptionStack(name: string, orgIds: readonly string[], env: Record<string, string>): Promise<ConsumptionStack> {
  const infra = await isolatedInfra();
  const keys = await testKeyRing();
  const events = await AuthEvents.connect(infra.natsUrl, infra.bus, keys.ring);
  const credentials: Record<string, TestCredential> = {};
  for (const orgId of orgIds) credentials[orgId] = await events.createCredential({ orgId });
  const processEnv = infra.env({ CREDENTIAL_KEYRING: keys.env, RATE_LIMIT_PER_MINUTE: '100000', ...env });
  const [ingest, gateway] = await Promise.all([startReadyApp('ingest', processEnv), startReadyApp('gateway', processEnv)]);
  const nc: NatsConnection = await connectNats(infra.natsUrl, name);
  const js: JetStreamClient = jetstream(nc);
  const db = new Client({ connectionString: infra.databaseUrl });
  await db.connect();
  const processes: PlatformProcess[] = [gateway.process, ingest.process];

  return {
    infra,
    port: gateway.port,
    credentials,
    publish: (orgId, kind, deviceId, payload) => js.publish(infra.bus.subject(`meter.${kind}.${orgId}.${deviceId}`), JSON.stringify(payload)),
    async stored(readings, device) {
      await eventually(
        async () => Number((await db.query('SELECT count(*) AS n FROM ingest.readings')).rows[0].n) === readings,
        30_000,
        'all readings ingested',
      );
      await eventually(
        async () =>
          (await db.query('SELECT name FROM ingest.devices WHERE org_id = $1 AND device_id = $2', [device.orgId, device.deviceId])).rows[0]?.name ===
          device.name,
        10_000,
        `device ${device.deviceId} registered`,
      );
    },
    async stop() {
      for (const process of processes) await process.stop();
      await events.close();
      await nc.close();
      await db.end();
      await infra.cleanup();
    },
  };
}
