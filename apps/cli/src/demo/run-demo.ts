import { randomBytes } from 'node:crypto';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import type { AppConfig } from '@meter/config';
import { BusNames, platformStreams } from '@meter/contracts';
import { connectNats, ensureStream } from '@meter/messaging';
import { createDataSource } from '@meter/persistence';
import { ingestStore } from '@meter/ingest';
import { signRequest } from '@meter/signing';
import { authDataSource, createOrganization } from '@meter/auth';
import { Progress } from '../progress';
import { plannedReadings, publishSimulatedMeters, type SimulationPlan, type SimulationSummary } from '../simulator/publish-simulated-meters';
import { demoExport } from './demo-export';
import { createCredential, login } from './management-client';
import { showLeakAlert } from './leak-alert-demo';
import { cliCallCommand, curlCommand, exportKeysCommand } from './shell';
import { waitForReadings } from './wait-for-readings';

const METERS = 3;
const DAYS = 100;
const ZONE = 'Europe/Madrid';
/** How long the gateway accepts a signature's timestamp (contract: 300 s either side). */
const SIGNATURE_WINDOW_SECONDS = 300;
const INGEST_TIMEOUT_MS = 120_000;

export interface DemoOptions {
  gatewayUrl: string;
  managementUrl: string;
  /** Where the demo's own lines go (stdout); progress goes to stderr. */
  say?: (line?: string) => void;
}

/**
 * `npm run demo` (README, "Demo"), on a running platform (`npm start`):
 * a demo organization and admin with a fresh email (the `cli org create` use
 * case), a session (POST /login), an API credential (POST
 * /org-api-credentials), whose keys it prints at once; then simulated meters
 * with 100 days of hourly readings on the bus (what `cli simulate`
 * publishes), and once the read model holds all of them, a signed gateway
 * request printed ready to paste, with its answer. It waits for its own
 * readings only, so earlier organizations, dead letters and failed logins on
 * the same platform do not hold it up.
 */
export async function runDemo(config: AppConfig, options: DemoOptions): Promise<void> {
  const { gatewayUrl, managementUrl } = options;
  const say = options.say ?? ((line = '') => process.stdout.write(`${line}\n`));
  await expectReady({ gateway: gatewayUrl, auth: managementUrl });

  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const email = `demo+${stamp}-${randomBytes(3).toString('hex')}@example.com`;
  const password = randomBytes(12).toString('base64url');
  const orgId = await createDemoOrganization(config, `Demo ${stamp}`, email, password);
  say(`Organization ${orgId}, admin ${email}`);

  const token = await login(managementUrl, email, password);
  const credential = await createCredential(managementUrl, token, 'demo');
  const keys = { accessKey: credential.access_key, secretKey: credential.secret_key };
  const target = '/meter/v1/projection?device_id=1';
  const url = new URL(target, gatewayUrl).toString();
  // The keys first: the secret key is shown only once, and the rest takes a while.
  say(`API credential ${credential.access_key} (${credential.scopes.join(', ')})`);
  say();
  say('The secret key is shown only once. To sign your own requests:');
  say();
  say(`  ${exportKeysCommand(keys)}`);
  say();
  say('or give the keys to the CLI, which signs afresh each time you run it (this request answers once the readings below are in):');
  say();
  say(cliCallCommand({ url, ...keys }));
  say();
  say(`Management API ${managementUrl} (log in as ${email} / ${password}); API documents ${gatewayUrl}/docs and ${managementUrl}/docs`);
  say(`Admin console ${managementUrl}/console/ (sign in with email ${email} and password ${password})`);
  say();

  const published = await publishAndIngest(config, orgId);
  say(`Published ${METERS} meters with ${DAYS} days of hourly readings: ${published.readings} readings in ${published.messages} messages; ingested`);

  const answer = await signedAnswer(url, target, keys.accessKey, keys.secretKey);
  const validUntil = new Date((answer.timestamp + SIGNATURE_WINDOW_SECONDS) * 1000).toISOString().slice(11, 19);
  say();
  say(`The same request with curl (its signature's timestamp is accepted for ${SIGNATURE_WINDOW_SECONDS} s, until ${validUntil} UTC):`);
  say();
  say(curlCommand({ url, method: 'GET', headers: { Authorization: answer.authorization } }));
  say();
  say(`Its answer: HTTP ${answer.status}`);
  say(JSON.stringify(answer.body, null, 2));
  if (answer.status !== 200) throw new Error(`the gateway answered HTTP ${answer.status}, not 200`);
  await demoExport(managementUrl, token, say);
  say();
  await showLeakAlert(config, { managementUrl, token, orgId, say });
}

async function expectReady(urls: Record<string, string>): Promise<void> {
  for (const [name, url] of Object.entries(urls)) {
    const ready = await fetch(new URL('/readyz', url)).then(
      (r) => r.ok,
      () => false,
    );
    if (!ready) throw new Error(`${name} is not ready at ${url}/readyz: start the platform first (npm start)`);
  }
}

async function createDemoOrganization(config: AppConfig, name: string, adminEmail: string, adminPassword: string): Promise<string> {
  const dataSource = await authDataSource(config, 'demo');
  try {
    return (await createOrganization(dataSource, { name, adminEmail, adminPassword })).orgId;
  } finally {
    await dataSource.destroy();
  }
}

/** Publishes the demo's meters, then waits until the read model holds every one of their readings. */
async function publishAndIngest(config: AppConfig, orgId: string): Promise<SimulationSummary> {
  const bus = new BusNames(config.BUS_PREFIX);
  const plan: SimulationPlan = {
    orgId,
    meters: METERS,
    firstId: 1,
    days: DAYS,
    intervalMs: 3600_000,
    zone: ZONE,
    perMessage: 100,
    seed: 1,
    pricePerUnit: 1.85,
    now: Date.now(),
  };
  const total = plannedReadings(plan);
  const nc = await connectNats(config.NATS_URL, 'demo');
  let summary: SimulationSummary;
  try {
    await ensureStream(await jetstreamManager(nc), platformStreams(bus).readings);
    const publishing = new Progress('demo', total, 'readings acknowledged by JetStream');
    publishing.start(`publishing ${METERS} simulated meters`);
    summary = await publishSimulatedMeters(jetstream(nc), bus, plan, (n) => publishing.set(n));
    publishing.finish();
  } finally {
    await nc.drain();
  }
  const db = await createDataSource({ ...ingestStore, url: config.DATABASE_URL, poolSize: 1, applicationName: 'demo' }).initialize();
  try {
    const storing = new Progress('demo', summary.readings, 'readings stored by ingest');
    storing.start(`waiting for ingest to store the readings of ${orgId}`);
    await waitForReadings(db, orgId, summary.readings, { timeoutMs: INGEST_TIMEOUT_MS, progress: storing });
    storing.finish();
  } finally {
    await db.destroy();
  }
  return summary;
}

interface SignedAnswer {
  authorization: string;
  timestamp: number;
  status: number;
  body: unknown;
}

/**
 * Signs and sends the request until it is answered 200. The gateway learns
 * of a new credential from the auth events a moment after its creation, so
 * the first tries may be 401; a 429 is waited out.
 */
async function signedAnswer(url: string, target: string, accessKey: string, secretKey: string): Promise<SignedAnswer> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const timestamp = Math.floor(Date.now() / 1000);
    const { authorization } = signRequest({ accessKey, secretKey, method: 'GET', target, timestamp });
    const response = await fetch(url, { headers: { authorization } });
    const body: unknown = await response.json().catch(() => null);
    if (response.status === 200 || Date.now() > deadline) return { authorization, timestamp, status: response.status, body };
    const wait = response.status === 429 ? Number(response.headers.get('retry-after') ?? 1) : 1;
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  }
}
