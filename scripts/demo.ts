import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { loadConfigOrExit, type AppConfig } from '@meter/config';
import { BusNames, platformStreams } from '@meter/contracts';
import { connectNats, ensureStream } from '@meter/messaging';
import { publishSimulatedMeters, type SimulationSummary } from '@meter/readings';
import { signRequest } from '@meter/signing';
import { authDataSource } from '../apps/auth/src/auth-data-source';
import { createOrganization } from '../apps/auth/src/organizations/create-organization';
import { createCredential, login } from './demo/management-client';
import { cliCallCommand, curlCommand } from './demo/shell';
import { waitForIngest } from './demo/wait-for-ingest';

const METERS = 3;
const DAYS = 100;
const ZONE = 'Europe/Madrid';
/** How long the gateway accepts a signature's timestamp (contract: 300 s either side). */
const SIGNATURE_WINDOW_SECONDS = 300;

/**
 * `npm run demo` (contract section 2), on a running platform (`npm start`):
 * a demo organization and admin (the `cli org create` use case), a session
 * (POST /login), an API credential (POST /org-api-credentials), simulated
 * meters with 100 days of hourly readings on the bus (what `cli simulate`
 * publishes), then, once ingest has taken them in, a signed gateway request
 * printed ready to paste, with its answer.
 */
async function main() {
  const config = loadConfigOrExit();
  const { values } = parseArgs({
    options: {
      'gateway-url': { type: 'string', default: `http://127.0.0.1:${config.GATEWAY_PORT}` },
      'management-url': { type: 'string', default: `http://127.0.0.1:${config.AUTH_PORT}` },
    },
  });
  const gatewayUrl = values['gateway-url'];
  const managementUrl = values['management-url'];
  const say = (line = '') => process.stdout.write(`${line}\n`);

  for (const [name, url] of [
    ['gateway', gatewayUrl],
    ['auth', managementUrl],
  ] as const) {
    const ready = await fetch(new URL('/readyz', url)).then(
      (r) => r.ok,
      () => false,
    );
    if (!ready) throw new Error(`${name} is not ready at ${url}/readyz: start the platform first (npm start)`);
  }

  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const email = `demo+${stamp}-${randomBytes(3).toString('hex')}@example.com`;
  const password = randomBytes(12).toString('base64url');
  const orgId = await createDemoOrganization(config, `Demo ${stamp}`, email, password);
  say(`Organization ${orgId}, admin ${email}`);

  const token = await login(managementUrl, email, password);
  const credential = await createCredential(managementUrl, token, 'demo');
  say(`API credential ${credential.access_key} (${credential.scopes.join(', ')})`);

  const published = await publishAndIngest(config, orgId);
  say(`Published ${METERS} meters with ${DAYS} days of hourly readings: ${published.readings} readings in ${published.messages} messages; ingested`);

  const target = '/meter/v1/projection?device_id=1';
  const url = new URL(target, gatewayUrl).toString();
  const answer = await signedAnswer(url, target, credential.access_key, credential.secret_key);
  const validUntil = new Date((answer.timestamp + SIGNATURE_WINDOW_SECONDS) * 1000).toISOString().slice(11, 19);

  say();
  say('A signed request (the CLI signs afresh each time you run it):');
  say();
  say(cliCallCommand({ url, accessKey: credential.access_key, secretKey: credential.secret_key }));
  say();
  say(`The same with curl (its signature's timestamp is accepted for ${SIGNATURE_WINDOW_SECONDS} s, until ${validUntil} UTC):`);
  say();
  say(curlCommand({ url, method: 'GET', headers: { Authorization: answer.authorization } }));
  say();
  say(`Its answer: HTTP ${answer.status}`);
  say(JSON.stringify(answer.body, null, 2));
  say();
  say('The secret key is shown only once; to sign your own requests:');
  say(`  export METER_ACCESS_KEY=${credential.access_key} METER_SECRET_KEY=${credential.secret_key}`);
  say(`Management API ${managementUrl} (log in as ${email} / ${password}); API documents ${gatewayUrl}/docs and ${managementUrl}/docs`);
  if (answer.status !== 200) throw new Error(`the gateway answered HTTP ${answer.status}, not 200`);
}

async function createDemoOrganization(config: AppConfig, name: string, adminEmail: string, adminPassword: string): Promise<string> {
  const dataSource = await authDataSource(config, 'demo');
  try {
    return (await createOrganization(dataSource, { name, adminEmail, adminPassword })).orgId;
  } finally {
    await dataSource.destroy();
  }
}

async function publishAndIngest(config: AppConfig, orgId: string): Promise<SimulationSummary> {
  const bus = new BusNames(config.BUS_PREFIX);
  const nc = await connectNats(config.NATS_URL, 'demo');
  try {
    const jsm = await jetstreamManager(nc);
    await ensureStream(jsm, platformStreams(bus).readings);
    const summary = await publishSimulatedMeters(jetstream(nc), bus, {
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
    });
    await waitForIngest(jsm, bus, summary.lastSequence, 120_000);
    return summary;
  } finally {
    await nc.drain();
  }
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

main().catch((error: unknown) => {
  process.stderr.write(`demo: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
