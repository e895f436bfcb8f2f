import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { Client } from 'pg';
import { connectNats } from '@meter/messaging';
import { eventually, startReadyApp, type IsolatedInfra } from '@meter/testing';
import { startGateway, type TestCredential } from './gateway-support';

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
  /** The credential key ring the gateway opens secrets with (an auth process started beside it needs it). */
  keys: { env: string };
  credentials: Record<string, TestCredential>;
  publish(orgId: string, kind: 'readings' | 'devices' | 'alarms', deviceId: number, payload: unknown): Promise<unknown>;
  /** Waits until `readings` rows are stored and `device` carries its registered name. */
  stored(readings: number, device: { orgId: string; deviceId: number; name: string }): Promise<void>;
  stop(): Promise<void>;
}

export async function startConsumptionStack(name: string, orgIds: readonly string[], env: Record<string, string>): Promise<ConsumptionStack> {
  // The reading alert rules are off unless asked for: these tests judge the days' own alerts (alert episodes: test/alert*.e2e.spec.ts).
  const gateway = await startGateway({
    env: { RATE_LIMIT_PER_MINUTE: '100000', INGEST_ALERT_RULES: 'off', ...env },
    credentials: orgIds.map((orgId) => ({ orgId })),
  });
  const { infra } = gateway;
  const credentials: Record<string, TestCredential> = Object.fromEntries(orgIds.map((orgId, i) => [orgId, gateway.credentials[i]!]));
  const ingest = await startReadyApp('ingest', gateway.env);
  const nc: NatsConnection = await connectNats(infra.natsUrl, name);
  const js: JetStreamClient = jetstream(nc);
  const db = new Client({ connectionString: infra.databaseUrl });
  await db.connect();

  return {
    infra,
    port: gateway.port,
    keys: gateway.keys,
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
      await ingest.process.stop();
      await nc.close();
      await db.end();
      await gateway.stop();
    },
  };
}
