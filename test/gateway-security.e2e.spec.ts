import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizationHeader, sign } from '@meter/signing';
import { eventually, type PlatformProcess } from '@meter/testing';
import {
  nowSeconds,
  rawRequest,
  signedRequest,
  startGateway,
  type AuthEvents,
  type GatewayUnderTest,
  type RawResponse,
  type TestCredential,
} from './gateway-support';

const AUTH_FAILURE_LIMIT = 20;
let addressCounter = 0;
/** A fresh client address per use: the gateway trusts loopback as a proxy, so X-Forwarded-For names the client. */
const freshAddress = () => `198.51.100.${++addressCounter}`;
const from = (address: string) => ({ 'x-forwarded-for': address });

/** Waits for the first half of a second, so a timestamp taken now is still the server's second on arrival. */
async function earlyInSecond() {
  while (Date.now() % 1000 > 300) await new Promise((resolve) => setTimeout(resolve, 20));
}

function expectProblem(response: RawResponse, status: number, code: string) {
  expect({ status: response.status, code: response.text && response.json().code }).toEqual({ status, code });
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.json()).toMatchObject({ type: `/docs/errors#${code}`, status, code, request_id: response.headers['x-request-id'] });
}

describe('gateway security against the real servers', () => {
  let stack: GatewayUnderTest;
  let gateway: PlatformProcess;
  let events: AuthEvents;
  let port: number;
  let credential: TestCredential;

  beforeAll(async () => {
    // The credential is published before the gateway starts: it must replay it before it says ready.
    stack = await startGateway({
      // LOG_LEVEL info: the access lines are checked below.
      env: { TRUSTED_PROXIES: '127.0.0.1/32,::1/128', AUTH_FAILURE_LIMIT_PER_MINUTE: String(AUTH_FAILURE_LIMIT), LOG_LEVEL: 'info' },
      credentials: [{}],
    });
    ({ process: gateway, port, events } = stack);
    [credential] = stack.credentials;
  });

  afterAll(() => stack?.stop());

  it('is ready only with its credential view loaded, and limits in Redis', async () => {
    const ready = (await rawRequest(port, { target: '/readyz' })).json();
    expect(ready).toMatchObject({ status: 'ready', limiter: 'redis', checks: { credentials: { status: 'up' }, redis: { status: 'up' } } });
    const signed = await signedRequest(port, credential, { target: '/meter/v1/nowhere', headers: from(freshAddress()) });
    expect(signed.status).toBe(404);
  });

  it('authenticates unknown routes too: 401 without a signature, 404 with one, RateLimit headers on both', async () => {
    const address = freshAddress();
    const anonymous = await rawRequest(port, { target: '/meter/v1/no-such-route', headers: from(address) });
    expectProblem(anonymous, 401, 'missing_authorization');
    expect(anonymous.headers['www-authenticate']).toBe('SVC-HMAC');
    expect(anonymous.headers['ratelimit-policy']).toBe(`"auth-failures";q=${AUTH_FAILURE_LIMIT};w=60`);
    expect(anonymous.headers['ratelimit']).toMatch(new RegExp(`^"auth-failures";r=${AUTH_FAILURE_LIMIT - 1};t=(59|60)$`));

    const fresh = await events.createCredential();
    await eventually(async () => (await signedRequest(port, fresh, { target: '/x' })).status !== 401, 2000, 'credential known');
    const known = await signedRequest(port, fresh, { target: '/meter/v1/no-such-route?x=1', headers: from(address) });
    expectProblem(known, 404, 'not_found');
    expect(known.headers['ratelimit-policy']).toBe('"default";q=60;w=60');
    expect(known.headers['ratelimit']).toMatch(/^"default";r=5[0-9];t=\d+$/);
    // The probes and the published API document stay open.
    expect((await rawRequest(port, { target: '/healthz' })).status).toBe(200);
    expect((await rawRequest(port, { target: '/docs/openapi.json' })).status).toBe(200);
    expect((await rawRequest(port, { target: '/docs' })).status).toBeLessThan(400);
  });

  it('answers every 401 code of the contract', async () => {
    const address = freshAddress();
    const headers = from(address);
    expectProblem(await rawRequest(port, { target: '/meter/v1/devices', headers }), 401, 'missing_authorization');
    expectProblem(await rawRequest(port, { target: '/meter/v1/devices', headers: { ...headers, authorization: 'Bearer x' } }), 401, 'malformed_authorization');
    expectProblem(
      await rawRequest(port, { target: '/meter/v1/devices', headers: { ...headers, authorization: 'SVC-HMAC access_key=sk_live_x signature=public' } }),
      401,
      'malformed_authorization',
    );
    expectProblem(
      await signedRequest(port, { accessKey: 'sk_live_nobodyknowsthis', secretKey: 'x' }, { target: '/meter/v1/devices', headers }),
      401,
      'unknown_access_key',
    );
    const timestamp = nowSeconds();
    const wrongSecret = await signedRequest(port, { ...credential, secretKey: 'wrong' }, { target: '/meter/v1/devices', headers, timestamp });
    expectProblem(wrongSecret, 401, 'invalid_signature');
    // Only the secret differs: the client's signing string hashes to what the server reports.
    expect(wrongSecret.json().signing_string_sha256).toBe(
      sign({ secretKey: 'wrong', method: 'GET', target: '/meter/v1/devices', timestamp }).signingStringSha256,
    );
    expectProblem(
      await signedRequest(port, credential, { target: '/meter/v1/devices', headers, timestamp: nowSeconds() - 3600 }),
      401,
      'timestamp_out_of_range',
    );
    const revoked = await events.createCredential();
    await events.revoke(revoked);
    await eventually(async () => (await signedRequest(port, revoked, { target: '/meter/v1/devices', headers })).status === 401 || false, 2000, 'revoked');
    expectProblem(await signedRequest(port, revoked, { target: '/meter/v1/devices', headers }), 401, 'credential_revoked');
  });

  it("names the organization and credential on each access line, a refused one's too, never the key, secret or signature", async () => {
    const accessLine = async (requestId: string) =>
      eventually<string>(
        async () =>
          gateway
            .log()
            .split('\n')
            .find((line) => line.includes(`"reqId":"${requestId}"`) && line.includes('request completed')) ?? false,
        5000,
        `the access line of ${requestId}`,
      );
    const headers = from(freshAddress());
    const accepted = await signedRequest(port, credential, { target: '/meter/v1/devices', headers: { ...headers, 'x-request-id': 'access-log-accepted' } });
    const refused = await signedRequest(
      port,
      { ...credential, secretKey: 'wrong' },
      { target: '/meter/v1/devices', headers: { ...headers, 'x-request-id': 'access-log-refused' } },
    );
    const anonymous = await rawRequest(port, { target: '/meter/v1/devices', headers: { ...headers, 'x-request-id': 'access-log-anonymous' } });
    expect([accepted.status, refused.status, anonymous.status]).toEqual([200, 401, 401]);
    const lines = {
      accepted: JSON.parse(await accessLine('access-log-accepted')),
      refused: JSON.parse(await accessLine('access-log-refused')),
      anonymous: JSON.parse(await accessLine('access-log-anonymous')),
    };
    expect(lines.accepted).toMatchObject({ route: '/meter/v1/devices', status: 200, org_id: credential.orgId, credential_id: credential.id });
    expect(lines.refused).toMatchObject({ status: 401, org_id: credential.orgId, credential_id: credential.id });
    expect(lines.anonymous).toMatchObject({ status: 401 });
    expect(lines.anonymous).not.toHaveProperty('credential_id');
    const text = JSON.stringify(lines);
    for (const needle of [credential.accessKey, credential.secretKey, 'SVC-HMAC']) expect(text).not.toContain(needle);
  });

  it('answers both 403 codes after a valid signature', async () => {
    const address = freshAddress();
    const scopeless = await events.createCredential({ scopes: [] });
    const fenced = await events.createCredential({ cidrs: ['192.0.2.0/24'] });
    await eventually(async () => (await signedRequest(port, fenced, { target: '/x', headers: from('192.0.2.1') })).status === 404, 2000, 'fenced known');
    expectProblem(await signedRequest(port, scopeless, { target: '/meter/v1/devices', headers: from(address) }), 403, 'insufficient_scope');
    expectProblem(await signedRequest(port, fenced, { target: '/meter/v1/devices', headers: from(address) }), 403, 'source_address_not_allowed');
  });

  it('refuses a query reordered or re-encoded, and a body re-serialised, after signing', async () => {
    const headers = from(freshAddress());
    const target = '/meter/v1/projection/bulk?device_ids=1001%2C1002&x=a%2fb';
    const timestamp = nowSeconds();
    const { signature } = sign({ secretKey: credential.secretKey, method: 'GET', target, timestamp });
    const authorization = authorizationHeader({ accessKey: credential.accessKey, signature, timestamp });
    const send = (t: string) => rawRequest(port, { target: t, headers: { ...headers, authorization } });
    // The exact bytes pass; the bulk route (issue-5-ingest) then answers 200 with both ids under errors (NOT_FOUND).
    expect((await send(target)).status).toBe(200);
    const reordered = '/meter/v1/projection/bulk?x=a%2fb&device_ids=1001%2C1002';
    const refused = await send(reordered);
    expectProblem(refused, 401, 'invalid_signature');
    // The answer names the SHA-256 of the string the server signed: the reordered target's, not the client's.
    const { signingStringSha256: serverHash } = sign({ secretKey: 'any', method: 'GET', target: reordered, timestamp });
    expect(refused.json().signing_string_sha256).toBe(serverHash);
    expect(serverHash).not.toBe(sign({ secretKey: credential.secretKey, method: 'GET', target, timestamp }).signingStringSha256);
    expectProblem(await send('/meter/v1/projection/bulk?device_ids=1001,1002&x=a%2fb'), 401, 'invalid_signature');
    expectProblem(await send('/meter/v1/projection/bulk?device_ids=1001%2c1002&x=a%2Fb'), 401, 'invalid_signature');

    const body = '{"devices": [ {"device_id": 1001} ]}';
    const post = sign({ secretKey: credential.secretKey, method: 'POST', target: '/meter/v1/dashboard-x', body, timestamp });
    const postAuth = authorizationHeader({ accessKey: credential.accessKey, signature: post.signature, timestamp });
    const postWith = (b: string) =>
      rawRequest(port, {
        method: 'POST',
        target: '/meter/v1/dashboard-x',
        body: b,
        headers: { ...headers, authorization: postAuth, 'content-type': 'application/json' },
      });
    expect((await postWith(body)).status).toBe(404);
    expectProblem(await postWith(JSON.stringify(JSON.parse(body))), 401, 'invalid_signature');
  });

  it('accepts the scheme name in any ASCII case (RFC 9110 11.1), nothing else loosened', async () => {
    const headers = from(freshAddress());
    const timestamp = nowSeconds();
    const target = '/meter/v1/scheme';
    const { signature } = sign({ secretKey: credential.secretKey, method: 'GET', target, timestamp });
    const canonical = authorizationHeader({ accessKey: credential.accessKey, signature, timestamp });
    const lower = canonical.replace('SVC-HMAC', 'svc-hmac');
    expect((await rawRequest(port, { target, headers: { ...headers, authorization: lower } })).status).toBe(404);
    const upperField = canonical.replace('access_key=', 'ACCESS_KEY=');
    expectProblem(await rawRequest(port, { target, headers: { ...headers, authorization: upperField } }), 401, 'malformed_authorization');
  });

  it('accepts 299 s of skew and refuses 301 s, in both directions', async () => {
    const headers = from(freshAddress());
    for (const skew of [299, -299]) {
      await earlyInSecond();
      const response = await signedRequest(port, credential, { target: '/meter/v1/skew', headers, timestamp: nowSeconds() + skew });
      expect({ skew, status: response.status }).toEqual({ skew, status: 404 });
    }
    for (const skew of [301, -301]) {
      await earlyInSecond();
      const response = await signedRequest(port, credential, { target: '/meter/v1/skew', headers, timestamp: nowSeconds() + skew });
      expectProblem(response, 401, 'timestamp_out_of_range');
    }
  });

  it('lets a public credential through with signature=public, never a secret one', async () => {
    const headers = from(freshAddress());
    const publicCredential = await events.createCredential({ type: 'public' });
    const publicAuth = () => authorizationHeader({ accessKey: publicCredential.accessKey, signature: 'public', timestamp: nowSeconds() });
    await eventually(
      async () => (await rawRequest(port, { target: '/meter/v1/p', headers: { ...headers, authorization: publicAuth() } })).status === 404,
      2000,
      'public credential accepted',
    );
    const secretAsPublic = authorizationHeader({ accessKey: credential.accessKey, signature: 'public', timestamp: nowSeconds() });
    expectProblem(await rawRequest(port, { target: '/meter/v1/p', headers: { ...headers, authorization: secretAsPublic } }), 401, 'invalid_signature');
  });

  it('refuses a revoked credential within a second', async () => {
    const headers = from(freshAddress());
    const doomed = await events.createCredential();
    await eventually(async () => (await signedRequest(port, doomed, { target: '/meter/v1/r', headers })).status === 404, 2000, 'credential known');
    await events.revoke(doomed);
    const response = await eventually(
      async () => {
        const r = await signedRequest(port, doomed, { target: '/meter/v1/r', headers });
        return r.status === 401 ? r : false;
      },
      1000,
      'revocation effective',
    );
    expectProblem(response, 401, 'credential_revoked');
  });

  it('applies allow-list changes within a second, IPv4 and IPv6', async () => {
    const fenced = await events.createCredential();
    await eventually(async () => (await signedRequest(port, fenced, { target: '/meter/v1/c', headers: from('203.0.113.5') })).status === 404, 2000, 'known');

    await events.setCidrs(fenced, ['192.0.2.0/24', '2001:db8::/32']);
    await eventually(
      async () => (await signedRequest(port, fenced, { target: '/meter/v1/c', headers: from('203.0.113.5') })).status === 403,
      1000,
      'allow-list enforced',
    );
    expectProblem(await signedRequest(port, fenced, { target: '/meter/v1/c', headers: from('203.0.113.5') }), 403, 'source_address_not_allowed');
    expect((await signedRequest(port, fenced, { target: '/meter/v1/c', headers: from('192.0.2.200') })).status).toBe(404);
    expect((await signedRequest(port, fenced, { target: '/meter/v1/c', headers: from('2001:db8::7') })).status).toBe(404);

    await events.setCidrs(fenced, []);
    await eventually(
      async () => (await signedRequest(port, fenced, { target: '/meter/v1/c', headers: from('203.0.113.5') })).status === 404,
      1000,
      'allow-list lifted',
    );
  });

  it('parses the JSON body only after verification: broken JSON is 400 naming the body, unsigned is 401', async () => {
    const headers = from(freshAddress());
    const broken = await signedRequest(port, credential, { method: 'POST', target: '/meter/v1/dashboard', body: '{"devices":', headers });
    expectProblem(broken, 400, 'validation_failed');
    expect(broken.json().errors).toEqual([{ field: 'body', message: 'is not valid JSON' }]);
    const unsigned = await rawRequest(port, {
      method: 'POST',
      target: '/meter/v1/dashboard',
      body: '{"devices":',
      headers: { ...headers, 'content-type': 'application/json' },
    });
    expectProblem(unsigned, 401, 'missing_authorization');
  });

  it("a body over 64 KiB, refused before authentication, carries and spends the address's failure budget", async () => {
    const headers = from(freshAddress());
    const big = await rawRequest(port, {
      method: 'POST',
      target: '/meter/v1/dashboard',
      body: 'x'.repeat(70 * 1024),
      headers: { ...headers, 'content-type': 'application/json' },
    });
    expect(big.status).toBe(413);
    expect(big.headers['ratelimit-policy']).toBe(`"auth-failures";q=${AUTH_FAILURE_LIMIT};w=60`);
    expect(big.headers['ratelimit']).toBe(`"auth-failures";r=${AUTH_FAILURE_LIMIT - 1};t=60`);
    const again = await rawRequest(port, {
      method: 'POST',
      target: '/meter/v1/dashboard',
      body: 'x'.repeat(70 * 1024),
      headers: { ...headers, 'content-type': 'application/json' },
    });
    expect(again.headers['ratelimit']).toBe(`"auth-failures";r=${AUTH_FAILURE_LIMIT - 2};t=60`);
    // The probes stay open and unmetered.
    expect((await rawRequest(port, { target: '/healthz', headers })).headers['ratelimit-policy']).toBeUndefined();
  });

  it('judges a Content-Type Fastify cannot parse after authentication: unsigned 401, signed 415, both with RateLimit headers', async () => {
    const headers = from(freshAddress());
    for (const type of ['', 'json', ';;;']) {
      const unsigned = await rawRequest(port, { method: 'POST', target: '/meter/v1/dashboard', body: '{}', headers: { ...headers, 'content-type': type } });
      expectProblem(unsigned, 401, 'missing_authorization');
      expect(unsigned.headers['ratelimit-policy']).toContain('"auth-failures"');
      const signed = await signedRequest(port, credential, {
        method: 'POST',
        target: '/meter/v1/dashboard',
        body: '{}',
        headers: { ...headers, 'content-type': type },
      });
      expectProblem(signed, 415, 'unsupported_media_type');
      expect(signed.headers['ratelimit-policy']).toContain('"default"');
    }
  });

  it('limits a credential to 60 a minute with Retry-After; failed attempts with its key do not spend its budget', async () => {
    const limited = await events.createCredential();
    await eventually(async () => (await signedRequest(port, limited, { target: '/meter/v1/l', headers: from(freshAddress()) })).status === 404, 2000, 'known');
    // An attacker who only knows the access key: these are refused and counted against their address.
    const attacker = freshAddress();
    for (let i = 0; i < 10; i++) {
      expectProblem(
        await signedRequest(port, { ...limited, secretKey: 'guess' }, { target: '/meter/v1/l', headers: from(attacker) }),
        401,
        'invalid_signature',
      );
    }
    const headers = from(freshAddress());
    const statuses: number[] = [];
    let last: RawResponse | undefined;
    for (let i = 0; i < 61; i++) {
      last = await signedRequest(port, limited, { target: '/meter/v1/l', headers });
      statuses.push(last.status);
    }
    // One request was spent while waiting for the credential to be known.
    expect(statuses.filter((s) => s === 404)).toHaveLength(59);
    expect(statuses.slice(59)).toEqual([429, 429]);
    expectProblem(last!, 429, 'rate_limited');
    const retryAfter = Number(last!.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(last!.headers['ratelimit']).toBe(`"default";r=0;t=${retryAfter}`);
  });

  it('limits failed authentication per source address, leaving other addresses and valid requests alone', async () => {
    const noisy = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i <= AUTH_FAILURE_LIMIT; i++) {
      statuses.push((await rawRequest(port, { target: '/meter/v1/devices', headers: from(noisy) })).status);
    }
    expect(statuses.slice(0, AUTH_FAILURE_LIMIT).every((s) => s === 401)).toBe(true);
    const blocked = await rawRequest(port, { target: '/meter/v1/devices', headers: from(noisy) });
    expectProblem(blocked, 429, 'rate_limited');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(blocked.headers['ratelimit-policy']).toBe(`"auth-failures";q=${AUTH_FAILURE_LIMIT};w=60`);
    expectProblem(await rawRequest(port, { target: '/meter/v1/devices', headers: from(freshAddress()) }), 401, 'missing_authorization');
    const fresh = await events.createCredential();
    await eventually(async () => (await signedRequest(port, fresh, { target: '/meter/v1/f', headers: from(noisy) })).status === 404, 2000, 'valid from noisy');
    const metrics = (await rawRequest(port, { target: '/metrics' })).text;
    expect(metrics).toMatch(/^meter_gateway_requests_refused_total\{code="rate_limited"\} [1-9]/m);
    expect(metrics).toMatch(/^meter_gateway_requests_refused_total\{code="missing_authorization"\} [1-9]/m);
  });

  it('answers no input with a 5xx', async () => {
    const headers = from(freshAddress());
    const auth = (target: string, method = 'GET', body?: string) => {
      const timestamp = nowSeconds();
      return authorizationHeader({
        accessKey: credential.accessKey,
        timestamp,
        signature: sign({ secretKey: credential.secretKey, method, target, body, timestamp }).signature,
      });
    };
    const cases: Array<{ method?: string; target: string; headers?: Record<string, string>; body?: Buffer | string }> = [
      { target: '/meter/v1/%zz' },
      { target: '/meter/v1/devices?%%%=%' },
      { target: '/meter/v1/devices', headers: { authorization: 'x'.repeat(4000) } },
      { target: '/meter/v1/devices', headers: { authorization: 'svc-hmac access_key=sk_live_a signature=public timestamp=99999999999999' } },
      { method: 'POST', target: '/meter/v1/dashboard', body: Buffer.from([0xff, 0xfe, 0x00]), headers: { 'content-type': 'application/json' } },
      {
        method: 'POST',
        target: '/meter/v1/dashboard',
        body: 'a=1',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: auth('/meter/v1/dashboard', 'POST', 'a=1') },
      },
      {
        method: 'POST',
        target: '/meter/v1/dashboard',
        body: '{"__proto__":{"x":1}}',
        headers: { 'content-type': 'application/json', authorization: auth('/meter/v1/dashboard', 'POST', '{"__proto__":{"x":1}}') },
      },
      { method: 'POST', target: '/meter/v1/dashboard', body: 'x'.repeat(70 * 1024), headers: { 'content-type': 'application/json' } },
      { method: 'DELETE', target: '/meter/v1/devices/1', headers: { authorization: auth('/meter/v1/devices/1', 'DELETE') } },
      { method: 'OPTIONS', target: '/meter/v1/devices' },
      { method: 'POST', target: '/meter/v1/dashboard', body: '{}', headers: { 'content-type': '' } },
    ];
    for (const c of cases) {
      const response = await rawRequest(port, { ...c, headers: { ...headers, ...c.headers } });
      expect({ target: c.target, status: response.status < 500 }).toEqual({ target: c.target, status: true });
      if (response.status >= 400) {
        expect({ target: c.target, type: response.headers['content-type'] }).toMatchObject({ type: expect.stringMatching(/^application\/problem\+json/) });
      }
    }
    expect(gateway.running).toBe(true);
  });
});

describe('gateway without trusted proxies', () => {
  let stack: GatewayUnderTest;
  let events: AuthEvents;
  let port: number;

  beforeAll(async () => {
    stack = await startGateway();
    ({ events, port } = stack);
  });

  afterAll(() => stack?.stop());

  it('judges the allow-list by the socket address and ignores a forged X-Forwarded-For', async () => {
    const fenced = await events.createCredential({ cidrs: ['192.0.2.0/24'] });
    const local = await events.createCredential({ cidrs: ['127.0.0.0/8', '::1/128'] });
    await eventually(async () => (await signedRequest(port, local, { target: '/meter/v1/x' })).status === 404, 2000, 'credentials known');
    const forged = await signedRequest(port, fenced, { target: '/meter/v1/x', headers: { 'x-forwarded-for': '192.0.2.10' } });
    expectProblem(forged, 403, 'source_address_not_allowed');
    expect((await signedRequest(port, local, { target: '/meter/v1/x', headers: { 'x-forwarded-for': '192.0.2.10' } })).status).toBe(404);
  });
});
