import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { authorizationHeader, sign } from '@meter/signing';
import type { CredentialRecord } from '../credentials/credential-record';
import { authenticate, type AuthContext, type SignedRequest } from './authenticate';
import { parseCidr, type CidrRange } from '@meter/config';

const NOW = 1_795_000_000;
const SECRET = 'test-secret-key';

const secretCredential: CredentialRecord = {
  credentialId: 'cred_1',
  orgId: 'org_1',
  accessKey: 'sk_live_abc',
  type: 'secret',
  scopes: ['meter:consumption:read'],
  allowedCidrs: [],
  allowedRanges: [],
  cidrsInvalid: false,
  secretKey: SECRET,
  status: 'active',
  expiresAt: null,
  allowedOrigins: [],
  deviceIds: null,
  version: 1,
};
const publicCredential: CredentialRecord = { ...secretCredential, credentialId: 'cred_2', accessKey: 'pk_live_abc', type: 'public', secretKey: undefined };

function context(...records: CredentialRecord[]): AuthContext {
  return { nowSeconds: NOW, maxSkewSeconds: 300, findCredential: (k) => records.find((r) => r.accessKey === k) };
}

function signed(
  overrides: Partial<Omit<SignedRequest, 'clientAddress'>> & {
    clientAddress?: () => string | undefined;
    timestamp?: number;
    accessKey?: string;
    secret?: string;
  } = {},
): SignedRequest {
  const method = overrides.method ?? 'POST';
  const target = overrides.target ?? '/meter/v1/dashboard?a=1&b=%2C';
  const body = overrides.body ?? Buffer.from('{"devices":[{"device_id":1}]}');
  const timestamp = overrides.timestamp ?? NOW;
  const accessKey = overrides.accessKey ?? secretCredential.accessKey;
  const { signature } = sign({ secretKey: overrides.secret ?? SECRET, method, target, body, timestamp });
  return {
    method,
    target,
    body,
    authorization: overrides.authorization ?? authorizationHeader({ accessKey, signature, timestamp }),
    clientAddress: overrides.clientAddress ?? (() => '203.0.113.9'),
  };
}

const codeOf = (request: SignedRequest, ctx = context(secretCredential, publicCredential)) => {
  const result = authenticate(request, ctx);
  return result.ok ? 'ok' : `${result.status} ${result.code}`;
};

describe('authenticate', () => {
  it('admits a correctly signed request and names the caller', () => {
    const result = authenticate(signed(), context(secretCredential));
    expect(result).toEqual({ ok: true, caller: { orgId: 'org_1', credentialId: 'cred_1', accessKey: 'sk_live_abc', type: 'secret' } });
  });

  it('answers the header problems first', () => {
    expect(codeOf({ ...signed(), authorization: undefined })).toBe('401 missing_authorization');
    expect(codeOf({ ...signed(), authorization: 'Bearer abc' })).toBe('401 malformed_authorization');
    expect(codeOf({ ...signed(), authorization: ['a', 'b'] })).toBe('401 malformed_authorization');
  });

  it('checks the clock before the credential: 299 and 300 s pass, 301 s fails, both directions', () => {
    for (const skew of [299, 300, -299, -300]) expect(codeOf(signed({ timestamp: NOW + skew }))).toBe('ok');
    for (const skew of [301, -301]) expect(codeOf(signed({ timestamp: NOW + skew }))).toBe('401 timestamp_out_of_range');
    expect(codeOf(signed({ timestamp: NOW + 301, accessKey: 'sk_live_nobody' }))).toBe('401 timestamp_out_of_range');
  });

  it('refuses a credential from its expires_at on, before its signature is judged', () => {
    const expiring = (at: number) => context({ ...secretCredential, expiresAt: at * 1000 });
    expect(codeOf(signed(), expiring(NOW + 1))).toBe('ok');
    expect(codeOf(signed(), expiring(NOW))).toBe('401 credential_expired');
    expect(codeOf(signed({ secret: 'wrong' }), expiring(NOW - 60))).toBe('401 credential_expired');
  });

  it("judges Origin, when sent, against the credential's allowed_origins", () => {
    const widget = context({ ...secretCredential, allowedOrigins: ['https://widget.example'] });
    expect(codeOf({ ...signed(), origin: 'https://widget.example' }, widget)).toBe('ok');
    expect(codeOf({ ...signed(), origin: 'https://widget.example.evil' }, widget)).toBe('403 origin_not_allowed');
    expect(codeOf(signed(), widget)).toBe('ok');
    // No list: origins are not judged (such a credential gets no CORS answers, security-pipeline.ts).
    expect(codeOf({ ...signed(), origin: 'https://anywhere.example' })).toBe('ok');
    // A bad signature is answered as such, never with the origin list's verdict.
    expect(codeOf({ ...signed({ secret: 'wrong' }), origin: 'https://x.example' }, widget)).toBe('401 invalid_signature');
  });

  it('names the devices a limited credential sees', () => {
    const result = authenticate(signed(), context({ ...secretCredential, deviceIds: new Set([7]) }));
    expect(result.ok && [...result.caller.deviceIds!]).toEqual([7]);
  });

  it('refuses unknown and revoked credentials', () => {
    expect(codeOf(signed({ accessKey: 'sk_live_nobody' }))).toBe('401 unknown_access_key');
    expect(codeOf(signed(), context({ ...secretCredential, status: 'revoked', secretKey: undefined }))).toBe('401 credential_revoked');
  });

  it('refuses a wrong secret, a changed body, a reordered or re-encoded query', () => {
    const good = signed();
    expect(codeOf(signed({ secret: 'other' }))).toBe('401 invalid_signature');
    expect(codeOf({ ...good, body: Buffer.from('{"devices": [{"device_id": 1}]}') })).toBe('401 invalid_signature');
    expect(codeOf({ ...good, target: '/meter/v1/dashboard?b=%2C&a=1' })).toBe('401 invalid_signature');
    expect(codeOf({ ...good, target: '/meter/v1/dashboard?a=1&b=%2c' })).toBe('401 invalid_signature');
    expect(codeOf({ ...good, method: 'PUT' })).toBe('401 invalid_signature');
  });

  it('names the SHA-256 of the string it signed when the signature differs, and only then', () => {
    const request = { ...signed({ secret: 'other' }), target: '/meter/v1/dashboard?b=%2C&a=1' };
    const bodyHash = createHash('sha256').update(request.body!).digest('hex');
    const serverString = `POST\n/meter/v1/dashboard\nb=%2C&a=1\n${bodyHash}\n${NOW}`;
    const result = authenticate(request, context(secretCredential));
    expect(result).toEqual({
      ok: false,
      status: 401,
      code: 'invalid_signature',
      detail: 'the signature does not match the request',
      extensions: { signing_string_sha256: createHash('sha256').update(serverString).digest('hex') },
    });
    // No HMAC computed: a secret key sent as public, a public key with an HMAC, a secret that could not be opened.
    const secretAsPublic = authorizationHeader({ accessKey: 'sk_live_abc', signature: 'public', timestamp: NOW });
    const unsigned = [
      authenticate({ ...signed(), authorization: secretAsPublic }, context(secretCredential)),
      authenticate(signed({ accessKey: 'pk_live_abc' }), context(publicCredential)),
      authenticate(signed(), context({ ...secretCredential, secretKey: undefined })),
    ];
    for (const refused of unsigned) expect(refused).toMatchObject({ code: 'invalid_signature' });
    for (const refused of unsigned) expect(refused).not.toHaveProperty('extensions');
  });

  it('lets a public credential skip the HMAC, but never a secret one', () => {
    const publicHeader = authorizationHeader({ accessKey: 'pk_live_abc', signature: 'public', timestamp: NOW });
    expect(codeOf({ ...signed(), authorization: publicHeader })).toBe('ok');
    const secretAsPublic = authorizationHeader({ accessKey: 'sk_live_abc', signature: 'public', timestamp: NOW });
    expect(codeOf({ ...signed(), authorization: secretAsPublic })).toBe('401 invalid_signature');
    // A public key with an HMAC is not the public scheme either.
    expect(codeOf(signed({ accessKey: 'pk_live_abc' }))).toBe('401 invalid_signature');
  });

  it('refuses a secret credential whose secret could not be opened', () => {
    expect(codeOf(signed(), context({ ...secretCredential, secretKey: undefined }))).toBe('401 invalid_signature');
  });

  it('requires the scope after the signature', () => {
    expect(codeOf(signed(), context({ ...secretCredential, scopes: [] }))).toBe('403 insufficient_scope');
    expect(codeOf(signed({ secret: 'x' }), context({ ...secretCredential, scopes: [] }))).toBe('401 invalid_signature');
  });

  it('admits any address with an empty allow-list, only listed ones otherwise, none when a CIDR is unreadable', () => {
    const listed = { ...secretCredential, allowedRanges: [parseCidr('203.0.113.0/24') as CidrRange, parseCidr('2001:db8::/32') as CidrRange] };
    expect(codeOf(signed({ clientAddress: () => '203.0.113.200' }), context(listed))).toBe('ok');
    expect(codeOf(signed({ clientAddress: () => '2001:db8::1' }), context(listed))).toBe('ok');
    expect(codeOf(signed({ clientAddress: () => '198.51.100.1' }), context(listed))).toBe('403 source_address_not_allowed');
    expect(codeOf({ ...signed(), clientAddress: () => undefined }, context(listed))).toBe('403 source_address_not_allowed');
    expect(codeOf(signed(), context({ ...secretCredential, cidrsInvalid: true }))).toBe('403 source_address_not_allowed');
  });

  it('never echoes the header or a secret in its detail', () => {
    const result = authenticate(signed({ secret: 'other' }), context(secretCredential));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.detail).not.toMatch(/sk_live|secret-key|[0-9a-f]{64}/);
  });
});
