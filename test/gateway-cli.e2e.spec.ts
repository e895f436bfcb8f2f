import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAuthorization, verifySignature } from '@meter/signing';
import { freePort } from '@meter/testing';
import { rawRequest, startGateway, type GatewayUnderTest, type TestCredential } from './gateway-support';

const CLI = join(__dirname, '..', 'dist', 'apps', 'cli', 'src', 'main.js');

async function cli(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 20_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('cli call and sign against the gateway', () => {
  let stack: GatewayUnderTest;
  let port: number;
  let credential: TestCredential;

  beforeAll(async () => {
    stack = await startGateway({ credentials: [{}] });
    port = stack.port;
    [credential] = stack.credentials;
  });

  afterAll(() => stack?.stop());

  it('call signs a GET with a query and a POST with a body well enough to pass authentication', async () => {
    const env = { METER_ACCESS_KEY: credential.accessKey, METER_SECRET_KEY: credential.secretKey };
    const get = await cli(['call', '-i', `http://127.0.0.1:${port}/meter/v1/nowhere?b=2&a=%2C`], env);
    expect(get.stdout).toMatch(/^HTTP 404 Not Found\n/);
    expect(get.stdout).toMatch(/^ratelimit-policy: "default";q=60;w=60$/m);
    expect(get.stdout).toContain('"code":"not_found"');
    expect(get.code).toBe(1);

    const post = await cli(['call', '-d', '{"devices": [{"device_id": 1}]}', '-H', 'X-Timezone: UTC', `http://127.0.0.1:${port}/meter/v1/nowhere`], env);
    expect(post.stderr).toContain('HTTP 404');

    const wrong = await cli(['call', '--access-key', credential.accessKey, '--secret-key', 'nope', `http://127.0.0.1:${port}/meter/v1/x`]);
    expect(wrong.stdout).toContain('"code":"invalid_signature"');
  });

  it('sign prints a header the gateway accepts', async () => {
    const url = `http://127.0.0.1:${port}/meter/v1/signed?x=1`;
    const { stdout, code } = await cli(['sign', '--access-key', credential.accessKey, '--secret-key', credential.secretKey, url]);
    expect(code).toBe(0);
    const header = stdout.trim().replace(/^Authorization: /, '');
    expect(parseAuthorization(header).ok).toBe(true);
    expect((await rawRequest(port, { target: '/meter/v1/signed?x=1', headers: { authorization: header } })).status).toBe(404);
  });

  it('refuses bad usage with exit code 2', async () => {
    expect((await cli(['call', 'not a url'], { METER_ACCESS_KEY: 'sk_live_a', METER_SECRET_KEY: 'b' })).code).toBe(2);
    expect((await cli(['call', `http://127.0.0.1:${port}/x`])).stderr).toMatch(/access key is required/);
    expect((await cli(['sign', '--timestamp', 'soon', '--access-key', 'sk_live_a', '--secret-key', 'b', 'http://h/x'])).code).toBe(2);
  });
});

describe('cli call honours Retry-After', () => {
  let server: Server;
  let port: number;
  const seen: Array<{ authorization: string; at: number }> = [];

  beforeAll(async () => {
    port = await freePort();
    // A stand-in that limits the first request: the retry behaviour is the CLI's, not the gateway's.
    server = createServer((req, res) => {
      seen.push({ authorization: String(req.headers.authorization), at: Date.now() });
      if (seen.length === 1) {
        res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/problem+json' }).end('{"code":"rate_limited"}');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      }
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('waits the seconds it is told, signs again, and prints the final answer', async () => {
    const result = await cli(['call', '--access-key', 'sk_live_abc', '--secret-key', 'k', `http://127.0.0.1:${port}/meter/v1/devices`]);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe('{"ok":true}');
    expect(result.stderr).toContain('retrying in 1 s');
    expect(seen).toHaveLength(2);
    expect(seen[1].at - seen[0].at).toBeGreaterThanOrEqual(1000);
    const second = parseAuthorization(seen[1].authorization);
    expect(
      second.ok && verifySignature({ secretKey: 'k', method: 'GET', target: '/meter/v1/devices', timestamp: second.timestamp, signature: second.signature }),
    ).toBe(true);
  });
});
