import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The committed API documents as an integrator's TypeScript tooling takes
 * them: openapi-typescript generates their types, and a small openapi-fetch
 * client compiles against them under strict settings, closed sets (X-Unit,
 * period, alert states, credential types) typed as unions, so a value
 * outside them is a compile error.
 */
const ROOT = join(__dirname, '..');
const run = promisify(execFile);

const CLIENT = `import createClient from 'openapi-fetch';
import type { paths as GatewayPaths } from './gateway';
import type { paths as ManagementPaths } from './management';

const gateway = createClient<GatewayPaths>({ baseUrl: 'http://localhost:8080' });
const management = createClient<ManagementPaths>({ baseUrl: 'http://localhost:8081' });

export async function history(): Promise<string | undefined> {
  const { data, error } = await gateway.GET('/meter/v1/history', {
    params: { query: { device_id: 1042, period: '7D' }, header: { 'X-Unit': 'gal', 'X-Timezone': 'Europe/Madrid' } },
  });
  if (error) return error.code;
  const chart: 'BAR' | 'LINE' = data.chart_type;
  const quality: 'ACTUAL' | 'ESTIMATED' | 'MISSING' = data.series[0].data_points[0].quality;
  return chart + quality;
}

export async function wrongUnit() {
  // @ts-expect-error X-Unit is a closed set
  await gateway.GET('/meter/v1/history', { params: { query: { device_id: 1, period: '7D' }, header: { 'X-Unit': 'kWh' } } });
}

export async function wrongPeriodKind() {
  // @ts-expect-error period is a string, never a number
  await gateway.GET('/meter/v1/history', { params: { query: { device_id: 1, period: 7 } } });
}

export async function hourly() {
  const { data } = await gateway.GET('/meter/v1/consumption', {
    params: { query: { device_id: 1042, from: '2026-11-20', to: '2026-11-21', interval: 'PT1H' } },
  });
  const quality: 'ACTUAL' | 'ESTIMATED' | 'MISSING' | undefined = data?.points[0].quality;
  return quality;
}

export async function wrongInterval() {
  // @ts-expect-error interval is a closed set
  await gateway.GET('/meter/v1/consumption', { params: { query: { device_id: 1, from: '2026-11-20', to: '2026-11-21', interval: 'PT30M' } } });
}

export async function openAlerts() {
  const { data } = await gateway.GET('/meter/v1/alerts', { params: { query: { state: 'open' } } });
  return data?.alerts.map((alert) => alert.code);
}

export async function createCredential(token: string) {
  const { data, error } = await management.POST('/org-api-credentials', {
    headers: { authorization: \`Bearer \${token}\` },
    body: { name: 'Billing export', type: 'secret', scopes: ['meter:consumption:read'] },
  });
  if (error) return error.code;
  const secret: string | undefined = data.secret_key ?? undefined;
  return secret;
}

export async function wrongCredentialType(token: string) {
  await management.POST('/org-api-credentials', {
    headers: { authorization: \`Bearer \${token}\` },
    // @ts-expect-error a credential is secret or public
    body: { name: 'x', type: 'private', scopes: [] },
  });
}
`;

describe('the API documents through openapi-typescript and openapi-fetch', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'meter-openapi-typescript-'));
    // The project's own packages (openapi-fetch), as an integrator's project would have them installed.
    await symlink(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('generate types that list X-Unit as an enum', async () => {
    for (const api of ['gateway', 'management']) {
      const document = JSON.parse(await readFile(join(ROOT, 'docs', 'openapi', `${api}.json`), 'utf8'));
      await writeFile(join(dir, `${api}.ts`), astToString(await openapiTS(document)));
    }
    const gateway = await readFile(join(dir, 'gateway.ts'), 'utf8');
    expect(gateway).toContain('"X-Unit"?: "m³" | "L" | "gal" | "ft³" | "CCF" | "m3" | "ft3";');
  });

  it('compile a small openapi-fetch client under strict settings, and refuse values outside the closed sets', async () => {
    await writeFile(join(dir, 'client.ts'), CLIENT);
    const compilerOptions = {
      strict: true,
      noEmit: true,
      module: 'preserve',
      moduleResolution: 'bundler',
      target: 'es2022',
      lib: ['es2022', 'dom'],
      types: [],
      skipLibCheck: false,
    };
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['client.ts'] }));
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const outcome = await run(process.execPath, [tsc, '-p', dir], { cwd: dir }).then(
      () => '',
      (error: { stdout?: string }) => error.stdout ?? String(error),
    );
    expect(outcome).toBe('');
  }, 120_000);
});
