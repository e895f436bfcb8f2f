import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { INSECURE_TEST_PASSWORD_PARAMS } from '@meter/crypto';
import { connectNats } from '@meter/messaging';
import { authDataSource, createOrganization } from '@meter/auth';
import { eventually, startReadyApp, type IsolatedInfra, type PlatformProcess } from '@meter/testing';
import { call, login, startAuth } from './auth-support';
import { signedRequest, startGateway, type GatewayUnderTest, type RawResponse, type TestCredential } from './gateway-support';

/**
 * The alert end-to-end tests' platform: ingest, gateway, auth and
 * integrations on servers of their own, organizations with an admin session
 * and a gateway credential each, a bus publisher, and webhook receivers.
 */

/** One request a receiver got. */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
  /** the status the receiver answered */
  answered: number;
}

/** A local HTTP server that records webhook deliveries and answers what each path is told to (200 by default). */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly scripts = new Map<string, number[]>();
  private readonly fallback = new Map<string, number>();

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(): Promise<WebhookReceiver> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const receiver = new WebhookReceiver(server, (server.address() as AddressInfo).port);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        const status = receiver.scripts.get(path)?.shift() ?? receiver.fallback.get(path) ?? 200;
        receiver.received.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now(), answered: status });
        // 0: no answer at all, the connection held open (a receiver that hangs).
        if (status !== 0) res.writeHead(status, { 'content-type': 'text/plain' }).end(String(status));
      });
    });
    return receiver;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** The next answers of `path`, in order; then `then` (200 unless given); 0 answers nothing and holds the connection. */
  answer(path: string, statuses: number[], then = 200): void {
    this.scripts.set(path, [...statuses]);
    this.fallback.set(path, then);
  }

  at(path: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.path === path);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

export interface TestOrganization {
  orgId: string;
  /** an admin session on the management API */
  token: string;
  /** a gateway credential of the organization */
  credential: TestCredential;
}

export interface AlertPlatform {
  infra: IsolatedInfra;
  gateway: GatewayUnderTest;
  ingest: PlatformProcess;
  auth: { process: PlatformProcess; base: string };
  integrations: { process: PlatformProcess; port: number };
  /** the environment every process got */
  env: Record<string, string>;
  db: Client;
  organization(): Promise<TestOrganization>;
  publish(kind: 'readings' | 'devices' | 'alarms', orgId: string, deviceId: number, payload: unknown): Promise<void>;
  /** A signed gateway GET as the organization. */
  get(org: TestOrganization, target: string): Promise<RawResponse>;
  management(org: TestOrganization, method: string, path: string, body?: unknown): ReturnType<typeof call>;
  /** Starts the integrations process again (after a stop). */
  restartIntegrations(): Promise<void>;
  stop(): Promise<void>;
}

export async function startAlertPlatform(name: string, env: Record<string, string> = {}): Promise<AlertPlatform> {
  const gateway = await startGateway({ env: { RATE_LIMIT_PER_MINUTE: '100000', ...env } });
  const { infra } = gateway;
  const all = { ...gateway.env, DATA_DIR: `.data/test-${infra.busPrefix}`, ...env };
  const [ingest, integrationsStarted, auth] = await Promise.all([startReadyApp('ingest', all), startReadyApp('integrations', all), startAuth(infra, all)]);
  const integrations = { ...integrationsStarted };
  const nc: NatsConnection = await connectNats(infra.natsUrl, name);
  const js: JetStreamClient = jetstream(nc);
  const db = new Client({ connectionString: infra.databaseUrl });
  await db.connect();
  const authDb: DataSource = await authDataSource({ DATABASE_URL: infra.databaseUrl }, name);
  let count = 0;

  return {
    infra,
    gateway,
    ingest: ingest.process,
    auth,
    integrations,
    env: all,
    db,
    async organization() {
      count += 1;
      const email = `alerts${count}-${Date.now()}@example.test`;
      const password = `correct horse ${count}`;
      const { orgId } = await createOrganization(
        authDb,
        { name: `Alerts ${count}`, adminEmail: email, adminPassword: password },
        INSECURE_TEST_PASSWORD_PARAMS,
      );
      const credential = await gateway.events.createCredential({ orgId });
      return { orgId, token: await login(auth.base, email, password), credential };
    },
    async publish(kind, orgId, deviceId, payload) {
      await js.publish(infra.bus.subject(`meter.${kind}.${orgId}.${deviceId}`), JSON.stringify(payload));
    },
    async get(org, target) {
      return eventually(
        async () => {
          // A credential published a moment ago may not be in the gateway's view yet.
          const response = await signedRequest(gateway.port, org.credential, { target });
          return response.status === 401 ? false : response;
        },
        10_000,
        `gateway answers ${target}`,
      );
    },
    management: (org, method, path, body) => call(auth.base, method, path, { token: org.token, body }),
    async restartIntegrations() {
      const started = await startReadyApp('integrations', { ...all, INTEGRATIONS_PORT: String(integrations.port) });
      integrations.process = started.process;
      integrations.port = started.port;
    },
    async stop() {
      await Promise.all([ingest.process.stop(), integrations.process.stop(), auth.process.stop()]);
      await nc.close();
      await db.end();
      await authDb.destroy();
      await gateway.stop();
    },
  };
}

/** Polls the gateway's alert list until `done` holds for it. */
export async function alertsWhen(
  platform: AlertPlatform,
  org: TestOrganization,
  query: string,
  done: (alerts: Record<string, unknown>[]) => boolean,
  what: string,
): Promise<Record<string, unknown>[]> {
  return eventually(
    async () => {
      const response = await platform.get(org, `/meter/v1/alerts?${query}`);
      if (response.status !== 200) throw new Error(`alerts answered ${response.status}: ${response.text}`);
      const alerts = response.json().alerts as Record<string, unknown>[];
      return done(alerts) ? alerts : false;
    },
    30_000,
    what,
  );
}

/** Hourly readings of a register: `steps[i]` is consumed in the hour ending at reading i + 1. */
export function hourlyReadings(from: number, start: number, steps: readonly number[]): { read_at: string; value: string }[] {
  let value = start;
  const out = [{ read_at: new Date(from).toISOString(), value: value.toFixed(3) }];
  steps.forEach((step, i) => {
    value += step;
    out.push({ read_at: new Date(from + (i + 1) * 3_600_000).toISOString(), value: value.toFixed(3) });
  });
  return out;
}
