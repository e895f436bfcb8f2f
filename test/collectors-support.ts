import { spawn } from 'node:child_process';
import { jetstream, jetstreamManager, type JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { INSECURE_TEST_PASSWORD_PARAMS } from '@meter/crypto';
import { platformStreams } from '@meter/contracts';
import { connectNats } from '@meter/messaging';
import { authDataSource, createOrganization } from '@meter/auth';
import { eventually, freePort, startReadyApp, type IsolatedInfra, type PlatformProcess } from '@meter/testing';
import { call, login, startAuth } from './auth-support';
import { signedRequest, startGateway, type GatewayUnderTest, type RawResponse, type TestCredential } from './gateway-support';

/**
 * The collectors end-to-end tests' platform: collectors, auth, ingest and the
 * gateway on servers of their own (or a NATS the test gives), organizations
 * with an admin session and a gateway credential, collector credentials made
 * through the management API.
 */
export interface CollectorOrganization {
  orgId: string;
  token: string;
  credential: TestCredential;
}

export interface CollectorCredentialCreated {
  id: string;
  username: string;
  password: string;
}

export interface CollectorsPlatform {
  infra: IsolatedInfra;
  gateway: GatewayUnderTest;
  env: Record<string, string>;
  collectors: { process: PlatformProcess; port: number; mqttPort: number };
  ingest: PlatformProcess;
  auth: { process: PlatformProcess; base: string };
  db: Client;
  js: JetStreamClient;
  organization(): Promise<CollectorOrganization>;
  collectorCredential(org: CollectorOrganization, format: string, mapping?: Record<string, string>): Promise<CollectorCredentialCreated>;
  /** A device message on the bus, waited for until the read model has it. */
  registerDevice(orgId: string, deviceId: number, device: Record<string, unknown>): Promise<void>;
  get(org: CollectorOrganization, target: string): Promise<RawResponse>;
  management(org: CollectorOrganization, method: string, path: string, body?: unknown): ReturnType<typeof call>;
  readingCount(orgId?: string): Promise<number>;
  /** Messages of the dead-letter stream on `meter.deadletter.uplinks`, with their headers. */
  uplinkDeadLetters(): Promise<{ data: string; headers: Record<string, string> }[]>;
  /** Starts collectors again (after a stop or a kill) on the same ports. */
  restartCollectors(extra?: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
}

export async function startCollectorsPlatform(name: string, env: Record<string, string> = {}): Promise<CollectorsPlatform> {
  const gateway = await startGateway({ env: { RATE_LIMIT_PER_MINUTE: '100000', ...env } });
  const { infra } = gateway;
  const all: Record<string, string> = { ...gateway.env, DATA_DIR: `.data/test-${infra.busPrefix}`, ...env };
  const mqttPort = await freePort();
  const [ingest, auth, collectorsStarted] = await Promise.all([
    startReadyApp('ingest', all),
    startAuth(infra, all),
    startReadyApp('collectors', { ...all, COLLECTORS_MQTT_PORT: String(mqttPort) }),
  ]);
  const collectors = { ...collectorsStarted, mqttPort };
  const nc: NatsConnection = await connectNats(all.NATS_URL, name);
  const js = jetstream(nc);
  const db = new Client({ connectionString: infra.databaseUrl });
  await db.connect();
  const authDb: DataSource = await authDataSource({ DATABASE_URL: infra.databaseUrl }, name);
  let count = 0;

  const platform: CollectorsPlatform = {
    infra,
    gateway,
    env: all,
    collectors,
    ingest: ingest.process,
    auth,
    db,
    js,
    async organization() {
      count += 1;
      const email = `collectors${count}-${Date.now()}@example.test`;
      const password = `correct horse ${count}`;
      const { orgId } = await createOrganization(
        authDb,
        { name: `Collectors ${count}`, adminEmail: email, adminPassword: password },
        INSECURE_TEST_PASSWORD_PARAMS,
      );
      const credential = await gateway.events.createCredential({ orgId });
      return { orgId, token: await login(auth.base, email, password), credential };
    },
    async collectorCredential(org, format, mapping) {
      const created = await call(auth.base, 'POST', '/collector-credentials', {
        token: org.token,
        body: { name: `${format} collector`, format, ...(mapping ? { mapping } : {}) },
      });
      if (created.status !== 201) throw new Error(`collector credential: ${created.status} ${JSON.stringify(created.body)}`);
      return created.body as CollectorCredentialCreated;
    },
    async registerDevice(orgId, deviceId, device) {
      await js.publish(infra.bus.subject(`meter.devices.${orgId}.${deviceId}`), JSON.stringify(device));
      await eventually(
        async () => (await db.query('SELECT name FROM ingest.devices WHERE org_id = $1 AND device_id = $2', [orgId, deviceId])).rows[0]?.name === device.name,
        15_000,
        `device ${deviceId} registered`,
      );
    },
    async get(org, target) {
      return eventually(
        async () => {
          const response = await signedRequest(gateway.port, org.credential, { target });
          return response.status === 401 ? false : response;
        },
        10_000,
        `gateway answers ${target}`,
      );
    },
    management: (org, method, path, body) => call(auth.base, method, path, { token: org.token, body }),
    async readingCount(orgId) {
      const result = orgId
        ? await db.query('SELECT count(*)::int AS n FROM ingest.readings WHERE org_id = $1', [orgId])
        : await db.query('SELECT count(*)::int AS n FROM ingest.readings');
      return result.rows[0].n as number;
    },
    async uplinkDeadLetters() {
      const jsm = await jetstreamManager(nc);
      const stream = platformStreams(infra.bus).deadLetters.name;
      const letters: { data: string; headers: Record<string, string> }[] = [];
      const { state } = await jsm.streams.info(stream);
      for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) {
        const message = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
        if (!message || !message.subject.endsWith('meter.deadletter.uplinks')) continue;
        const headers: Record<string, string> = {};
        for (const [key, values] of message.header ?? []) headers[key] = values[0];
        letters.push({ data: new TextDecoder().decode(message.data), headers });
      }
      return letters;
    },
    async restartCollectors(extra = {}) {
      const started = await startReadyApp('collectors', { ...all, COLLECTORS_PORT: String(collectors.port), COLLECTORS_MQTT_PORT: String(mqttPort), ...extra });
      collectors.process = started.process;
    },
    async stop() {
      await Promise.all([collectors.process.stop(), ingest.process.stop(), auth.process.stop()]);
      await nc.close();
      await db.end();
      await authDb.destroy();
      await gateway.stop();
    },
  };
  return platform;
}

/** One QoS 1 message with Debian's mosquitto_pub to 127.0.0.1:`port`, signed in when `username` is given. */
export function mosquittoPublish(port: number, topic: string, message: string, login?: { username: string; password: string }) {
  const credentials = login ? ['-u', login.username, '-P', login.password] : [];
  return mosquittoPub(['-h', '127.0.0.1', '-p', String(port), ...credentials, '-q', '1', '-t', topic, '-m', message]);
}

/** Debian's mosquitto_pub, as wmbusmeters' MQTT shell command runs it: exit code and what it printed. */
export function mosquittoPub(args: string[], input?: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('mosquitto_pub', args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    // It may exit (a refused CONNECT) before reading its input.
    child.stdin.on('error', () => undefined);
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
    child.stdin.end(input ?? '');
  });
}
