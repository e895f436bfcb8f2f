import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { loadConfigOrExit } from '@meter/config';
import { BusNames } from '@meter/contracts';
import { connectNats } from '@meter/messaging';
import { signRequest } from '@meter/signing';
import { createCredential, login } from './demo/management-client';
import { publishMeters } from './demo/publish-meters';
import { curlCommand } from './demo/shell';
import { DEMO_METERS } from './demo/simulated-meters';

const DAYS = 100;

/**
 * `npm run demo` (contract section 2), on a running platform (`npm start`):
 * a demo organization and admin (`cli org create`), a session (POST /login),
 * an API credential (POST /org-api-credentials), three simulated meters with
 * 100 days of hourly readings on the bus, then a signed gateway request,
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

  for (const [name, url] of [['gateway', gatewayUrl], ['auth', managementUrl]] as const) {
    const ready = await fetch(new URL('/readyz', url)).then((r) => r.ok, () => false);
    if (!ready) throw new Error(`${name} does not answer at ${url}/readyz: start the platform first (npm start)`);
  }

  const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const email = `demo+${stamp}@example.com`;
  const password = randomBytes(12).toString('base64url');
  const org = await createOrganization(`Demo ${stamp}`, email, password);
  say(`organization ${org.org_id}, admin ${org.admin_email}`);

  const token = await login(managementUrl, email, password);
  const credential = await createCredential(managementUrl, token, 'demo');
  say(`API credential ${credential.access_key}`);

  const nc = await connectNats(config.NATS_URL, 'demo');
  try {
    const count = await publishMeters(nc, new BusNames(config.BUS_PREFIX), org.org_id, DEMO_METERS, DAYS, Date.now());
    say(`published ${count} hourly readings of ${DEMO_METERS.length} meters (${DAYS} days)`);
  } finally {
    await nc.drain();
  }

  const target = `/meter/v1/projection?device_id=${DEMO_METERS[0].deviceId}`;
  await waitForIngest(gatewayUrl, target, credential.access_key, credential.secret_key);

  // The request printed is the one whose answer is shown: same target, same header.
  const { authorization } = signRequest({ accessKey: credential.access_key, secretKey: credential.secret_key, method: 'GET', target });
  const url = new URL(target, gatewayUrl).toString();
  const response = await fetch(url, { headers: { authorization } });
  say();
  say('A signed request (its timestamp is valid for 5 minutes):');
  say();
  say(curlCommand({ url, method: 'GET', headers: { Authorization: authorization } }));
  say();
  say(`Its answer (HTTP ${response.status}):`);
  say(JSON.stringify(await response.json().catch(() => null), null, 2));
  say();
  say('To sign your own requests, keep these (the secret is shown only once):');
  say(`  METER_ACCESS_KEY=${credential.access_key}`);
  say(`  METER_SECRET_KEY=${credential.secret_key}`);
  say(`Management API: ${managementUrl} (${email} / ${password}); API documents: ${gatewayUrl}/docs, ${managementUrl}/docs`);
}

async function createOrganization(name: string, email: string, password: string): Promise<{ org_id: string; admin_email: string }> {
  const cli = join(__dirname, '..', 'apps', 'cli', 'src', 'main.js');
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [cli, 'org', 'create', '--name', name, '--admin-email', email, '--admin-password', password], {
      env: process.env,
    });
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as { org_id: string; admin_email: string };
  } catch (error) {
    // The command line holds the password: report the CLI's first line, without it.
    const stderr = String((error as { stderr?: string }).stderr ?? '').trim().split('\n')[0];
    const reason = stderr || (error instanceof Error ? error.message.split('\n')[0] : String(error));
    throw new Error(`npm run cli -- org create failed: ${reason.replace(/--admin-password \S+/g, '--admin-password ***')}`);
  }
}

/** Asks the gateway until ingest has caught up: the projection has a non-zero average. */
async function waitForIngest(gatewayUrl: string, target: string, accessKey: string, secretKey: string): Promise<{ status: number; body: unknown }> {
  const deadline = Date.now() + 120_000;
  let last: { status: number; body: unknown } = { status: 0, body: null };
  while (Date.now() < deadline) {
    const { authorization } = signRequest({ accessKey, secretKey, method: 'GET', target });
    const response = await fetch(new URL(target, gatewayUrl), { headers: { authorization } });
    last = { status: response.status, body: await response.json().catch(() => null) };
    const average = (last.body as { average_daily_consumption?: number } | null)?.average_daily_consumption;
    if (response.status === 200 && typeof average === 'number' && average > 0) return last;
    if (response.status === 429) {
      await sleep(Number(response.headers.get('retry-after') ?? 1) * 1000);
      continue;
    }
    await sleep(1000);
  }
  throw new Error(`the gateway did not show the demo readings within 2 minutes; last answer: HTTP ${last.status} ${JSON.stringify(last.body)}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

main().catch((error: unknown) => {
  process.stderr.write(`demo: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
