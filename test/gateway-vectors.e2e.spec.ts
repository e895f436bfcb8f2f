import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signingVectors, type SigningVector } from '../libs/signing/src/signing-vectors.fixture';
import { rawRequest, startGateway, type GatewayUnderTest } from './gateway-support';

const file = signingVectors();

const AUTH_CODES = new Set([
  'missing_authorization',
  'malformed_authorization',
  'unknown_access_key',
  'invalid_signature',
  'timestamp_out_of_range',
  'credential_revoked',
  'insufficient_scope',
  'source_address_not_allowed',
  'rate_limited',
]);

/** The independent vectors, sent byte for byte to a gateway whose clock is set to the vectors' time. */
describe('gateway accepts every signing vector as sent', () => {
  let stack: GatewayUnderTest;
  let port: number;

  beforeAll(async () => {
    const middle = file.vectors[Math.floor(file.vectors.length / 2)].timestamp;
    stack = await startGateway({
      env: { TEST_NOW: new Date(middle * 1000).toISOString(), AUTH_FAILURE_LIMIT_PER_MINUTE: '1000' },
      credentials: [{ accessKey: file.access_key, secretKey: file.secret_key }],
    });
    port = stack.port;
  });

  afterAll(() => stack?.stop());

  const send = (v: SigningVector, authorization: string, body = Buffer.from(v.body_base64, 'base64')) =>
    rawRequest(port, {
      method: v.method,
      target: v.target,
      body: body.length ? body : undefined,
      headers: { authorization, ...(body.length ? { 'content-type': 'application/json' } : {}) },
    });

  it.each(file.vectors.map((v) => [v.name, v] as const))('%s: passes authentication; a changed signature or body does not', async (_name, v) => {
    const accepted = await send(v, v.authorization);
    const code = accepted.headers['content-type']?.toString().startsWith('application/problem+json') ? accepted.json().code : undefined;
    expect({ status: accepted.status, code: AUTH_CODES.has(String(code)) ? code : 'passed' }).toMatchObject({ code: 'passed' });
    expect(accepted.status).toBeLessThan(500);
    expect(accepted.headers['ratelimit-policy']).toBe('"default";q=60;w=60');

    const flipped = v.signature.slice(0, -1) + (v.signature.endsWith('0') ? '1' : '0');
    const tampered = await send(v, v.authorization.replace(v.signature, flipped));
    expect(tampered.status).toBe(401);
    expect(tampered.json().code).toBe('invalid_signature');

    const body = Buffer.from(v.body_base64, 'base64');
    if (body.length) {
      const parsed: unknown = JSON.parse(body.toString('utf8'));
      const compact = Buffer.from(JSON.stringify(parsed));
      // The same JSON value in other bytes, whichever way the vector was written.
      const reserialised = compact.equals(body) ? Buffer.from(JSON.stringify(parsed, null, 2)) : compact;
      expect(reserialised.equals(body)).toBe(false);
      expect((await send(v, v.authorization, reserialised)).json().code).toBe('invalid_signature');
    }
  });
});
