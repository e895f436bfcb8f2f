import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signingVectors, type SigningVector, type SigningVectorFile } from '../libs/signing/src/signing-vectors.fixture';
import { startGateway, type GatewayUnderTest } from './gateway-support';

/**
 * The SDK as integrators get it. libs/signing is copied out of the monorepo
 * (nothing of the repository's node_modules or tsconfig in reach), installs
 * its own devDependencies from its own lock file, builds and packs there;
 * the tarball is installed into a project elsewhere (offline: the package has
 * no dependencies), which signs requests from the committed vectors and
 * against a real gateway.
 */
const PACKAGE_DIR = join(__dirname, '..', 'libs', 'signing');
const ROOT = join(__dirname, '..');
const run = promisify(execFile);

/** npm as a user runs it: none of the npm_* settings of the `npm test` that started this test. */
function cleanEnv(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', ...overrides };
}

/** The package folder as a person copies it: its files, without anything built or installed in it. */
async function copyPackage(to: string): Promise<void> {
  const skipped = new Set(['node_modules', 'dist']);
  await cp(PACKAGE_DIR, to, { recursive: true, filter: (source) => !skipped.has(basename(source)) && !source.endsWith('.tgz') });
}

describe('the @meter/signing package, built and packed outside the monorepo', () => {
  let work: string;
  let project: string;
  let tarball: string;
  let vector: SigningVector;
  let file: SigningVectorFile;
  let stack: GatewayUnderTest;

  /** Runs `source` as a script of the integrator's project; its stdout. */
  async function runInProject(name: string, source: string, args: unknown): Promise<string> {
    const script = join(project, name);
    await writeFile(script, source);
    const { stdout } = await run(process.execPath, [script, JSON.stringify(args)], { cwd: project });
    return stdout;
  }

  async function buildAndPack(): Promise<void> {
    const copy = join(work, 'signing');
    await copyPackage(copy);
    // Its own devDependencies (TypeScript, Node's types) from its own lock file; the machine's npm cache first.
    await run('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: copy, env: cleanEnv() });
    await run('npm', ['pack', '--pack-destination', work], { cwd: copy, env: cleanEnv() });
    tarball = join(
      work,
      (await readdir(work)).find((name) => name.endsWith('.tgz'))!,
    );

    project = join(work, 'integrator');
    await mkdir(project);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'integrator', version: '1.0.0', private: true }));
    await run('npm', ['install', '--offline', tarball], { cwd: project, env: cleanEnv({ npm_config_cache: join(work, 'npm-cache') }) });
  }

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'meter-signing-package-'));
    file = signingVectors();
    // A signed POST with a body: the signing string covers the most there.
    vector = file.vectors.find((v) => v.method === 'POST' && v.body_base64 !== '')!;
    [stack] = await Promise.all([startGateway({ credentials: [{}] }), buildAndPack()]);
  }, 300_000);

  afterAll(async () => {
    await stack?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('is a tarball of the built JavaScript, its type declarations and the README, with no dependencies', async () => {
    const { stdout } = await run('tar', ['-tzf', tarball]);
    const files = stdout.trim().split('\n').sort();
    expect(files).toContain('package/dist/index.js');
    expect(files).toContain('package/dist/index.d.ts');
    expect(files).toContain('package/README.md');
    expect(files.filter((f) => /\.spec\.|\.ts$/.test(f) && !f.endsWith('.d.ts'))).toEqual([]);
    const manifest = JSON.parse(await readFile(join(project, 'node_modules', '@meter', 'signing', 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: '@meter/signing', types: './dist/index.d.ts' });
    expect(manifest.dependencies).toBeUndefined();
  });

  it('signs a request from CommonJS as the vectors say', async () => {
    const stdout = await runInProject(
      'sign.cjs',
      `const { signRequest } = require('@meter/signing');
const [v, accessKey, secretKey] = JSON.parse(process.argv[2]);
const headers = signRequest({ accessKey, secretKey, method: v.method, target: v.target, body: Buffer.from(v.body_base64, 'base64'), timestamp: v.timestamp });
process.stdout.write(headers.authorization);
`,
      [vector, file.access_key, file.secret_key],
    );
    expect(stdout).toBe(vector.authorization);
  });

  it('signs and verifies from an ES module through named imports', async () => {
    const stdout = await runInProject(
      'sign.mjs',
      `import { signRequest, verifySignature, parseAuthorization } from '@meter/signing';
const [v, accessKey, secretKey] = JSON.parse(process.argv[2]);
const body = Buffer.from(v.body_base64, 'base64');
const { authorization } = signRequest({ accessKey, secretKey, method: v.method, target: v.target, body, timestamp: v.timestamp });
const parsed = parseAuthorization(authorization);
const verified = verifySignature({ secretKey, method: v.method, target: v.target, body, timestamp: parsed.timestamp, signature: parsed.signature });
process.stdout.write(JSON.stringify({ authorization, verified }));
`,
      [vector, file.access_key, file.secret_key],
    );
    expect(JSON.parse(stdout)).toEqual({ authorization: vector.authorization, verified: true });
  });

  it('signs requests the gateway accepts, and compares its signing string as the README says when one is refused', async () => {
    const [credential] = stack.credentials;
    const stdout = await runInProject(
      'gateway.mjs',
      `import { authorizationHeader, sign, signRequest } from '@meter/signing';
const { baseUrl, accessKey, secretKey } = JSON.parse(process.argv[2]);
const answers = {};

const devices = new URL('/meter/v1/devices?limit=5', baseUrl);
const listed = await fetch(devices, { headers: signRequest({ accessKey, secretKey, method: 'GET', target: devices.pathname + devices.search }) });
answers.devices = { status: listed.status, body: await listed.json() };

const dashboard = new URL('/meter/v1/dashboard', baseUrl);
const body = JSON.stringify({ devices: [{ device_id: 1001 }] });
const headers = signRequest({ accessKey, secretKey, method: 'POST', target: dashboard.pathname, body });
const posted = await fetch(dashboard, { method: 'POST', body, headers: { ...headers, 'content-type': 'application/json' } });
answers.dashboard = { status: posted.status, body: await posted.json() };

// The wrong secret: the gateway signed the same string, so the hashes are equal.
const timestamp = Math.floor(Date.now() / 1000);
const wrong = sign({ secretKey: 'not-the-secret', method: 'GET', target: devices.pathname + devices.search, timestamp });
const refused = await fetch(devices, { headers: { authorization: authorizationHeader({ accessKey, signature: wrong.signature, timestamp }) } });
answers.refused = { status: refused.status, body: await refused.json(), mine: wrong.signingStringSha256 };
process.stdout.write(JSON.stringify(answers));
`,
      { baseUrl: `http://127.0.0.1:${stack.port}`, accessKey: credential.accessKey, secretKey: credential.secretKey },
    );
    const answers = JSON.parse(stdout);
    expect(answers.devices).toMatchObject({ status: 200, body: { devices: [] } });
    expect(answers.dashboard.status).toBe(200);
    expect(answers.refused).toMatchObject({ status: 401, body: { code: 'invalid_signature', signing_string_sha256: answers.refused.mine } });
  });

  it('ships types a TypeScript project compiles against, and they refuse a call without a method', async () => {
    await writeFile(
      join(project, 'check.ts'),
      `import { signRequest, type SignedHeaders } from '@meter/signing';
const headers: SignedHeaders = signRequest({ accessKey: 'pk_live_example', method: 'GET', target: '/meter/v1/devices' });
export const authorization: string = headers.authorization;
// @ts-expect-error method is required
signRequest({ accessKey: 'pk_live_example', target: '/meter/v1/devices' });
`,
    );
    const compilerOptions = { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', types: [] };
    await writeFile(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['check.ts'] }));
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const outcome = await run(process.execPath, [tsc, '-p', project], { cwd: project }).catch((error: { stdout?: string }) => ({
      stdout: error.stdout ?? String(error),
    }));
    expect(outcome.stdout).toBe('');
  }, 60_000);
});
