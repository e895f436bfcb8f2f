import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signingVectors, type SigningVector, type SigningVectorFile } from './src/signing-vectors.fixture';

/**
 * The SDK as integrators get it: `npm pack` of libs/signing, installed from
 * the tarball into a project outside the monorepo (offline: the package has
 * no dependencies), signing a request from the committed vectors.
 */
const PACKAGE_DIR = __dirname;
const ROOT = join(__dirname, '..', '..');
const run = promisify(execFile);

/** npm as a user runs it: none of the npm_* settings of the `npm test` that started this test. */
function cleanEnv(cache: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  return { ...env, npm_config_cache: cache, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
}

describe('the @meter/signing package', () => {
  let work: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  let tarball: string;
  let vector: SigningVector;
  let file: SigningVectorFile;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'meter-signing-package-'));
    env = cleanEnv(join(work, 'npm-cache'));
    file = signingVectors();
    // A signed POST with a body: the signing string covers the most there.
    vector = file.vectors.find((v) => v.method === 'POST' && v.body_base64 !== '')!;

    await run('npm', ['pack', '--pack-destination', work], { cwd: PACKAGE_DIR, env });
    tarball = join(
      work,
      (await readdir(work)).find((name) => name.endsWith('.tgz'))!,
    );

    project = join(work, 'integrator');
    await mkdir(project);
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'integrator', version: '1.0.0', private: true }));
    await run('npm', ['install', '--offline', tarball], { cwd: project, env });
  }, 180_000);

  afterAll(async () => {
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
    const script = join(project, 'sign.cjs');
    await writeFile(
      script,
      `const { signRequest } = require('@meter/signing');
const [v, accessKey, secretKey] = JSON.parse(process.argv[2]);
const headers = signRequest({ accessKey, secretKey, method: v.method, target: v.target, body: Buffer.from(v.body_base64, 'base64'), timestamp: v.timestamp });
process.stdout.write(headers.authorization);
`,
    );
    const { stdout } = await run(process.execPath, [script, JSON.stringify([vector, file.access_key, file.secret_key])], { cwd: project });
    expect(stdout).toBe(vector.authorization);
  });

  it('signs and verifies from an ES module through named imports', async () => {
    const script = join(project, 'sign.mjs');
    await writeFile(
      script,
      `import { signRequest, verifySignature, parseAuthorization } from '@meter/signing';
const [v, accessKey, secretKey] = JSON.parse(process.argv[2]);
const body = Buffer.from(v.body_base64, 'base64');
const { authorization } = signRequest({ accessKey, secretKey, method: v.method, target: v.target, body, timestamp: v.timestamp });
const parsed = parseAuthorization(authorization);
const verified = verifySignature({ secretKey, method: v.method, target: v.target, body, timestamp: parsed.timestamp, signature: parsed.signature });
process.stdout.write(JSON.stringify({ authorization, verified }));
`,
    );
    const { stdout } = await run(process.execPath, [script, JSON.stringify([vector, file.access_key, file.secret_key])], { cwd: project });
    expect(JSON.parse(stdout)).toEqual({ authorization: vector.authorization, verified: true });
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
