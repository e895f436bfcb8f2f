import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  accessKeyKind,
  authorizationHeader,
  bodySha256Hex,
  DEFAULT_MAX_SKEW_SECONDS,
  EMPTY_BODY_SHA256,
  isPublicAccessKey,
  isSecretAccessKey,
  parseAuthorization,
  sign,
  signatureKindAllowed,
  signingString,
  signingStringSha256,
  signRequest,
  splitTarget,
  timestampWithinSkew,
  verifySignature,
} from './index';

const secretKey = 'sk_test_secret_for_unit_tests';
const accessKey = 'sk_live_unit0001';
const timestamp = 1763719200;

describe('splitTarget', () => {
  it.each([
    ['/a/b?x=1&y=%2C', '/a/b', 'x=1&y=%2C'],
    ['/a/b', '/a/b', ''],
    ['/x?', '/x', ''],
    ['/x??a=1', '/x', '?a=1'],
    ['/x?a=1?b=2', '/x', 'a=1?b=2'],
    ['/p%2Fq?%61=%2c', '/p%2Fq', '%61=%2c'],
    ['/', '/', ''],
    ['', '', ''],
  ])('%s -> path %s, query %s', (target, path, query) => {
    expect(splitTarget(target)).toEqual({ path, query });
  });
});

describe('bodySha256Hex', () => {
  it('hashes undefined, null, empty string and empty bytes as the empty string', () => {
    for (const body of [undefined, null, '', Buffer.alloc(0), new Uint8Array(0)]) {
      expect(bodySha256Hex(body)).toBe(EMPTY_BODY_SHA256);
    }
    expect(bodySha256Hex()).toBe(EMPTY_BODY_SHA256);
    // the constant is the digest of zero bytes, not a value taken on trust
    expect(createHash('sha256').update(Buffer.alloc(0)).digest('hex')).toBe(EMPTY_BODY_SHA256);
  });

  it('refuses a body that is neither bytes nor text, empty or not', () => {
    for (const body of [[], {}, 0, [1]]) expect(() => bodySha256Hex(body as never)).toThrow(TypeError);
  });

  it('hashes bytes, Uint8Array and UTF-8 strings alike', () => {
    const text = '{"note":"café ✓"}';
    const expected = bodySha256Hex(Buffer.from(text, 'utf8'));
    expect(bodySha256Hex(text)).toBe(expected);
    expect(bodySha256Hex(new Uint8Array(Buffer.from(text, 'utf8')))).toBe(expected);
    expect(bodySha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('rejects a non-body value with a TypeError', () => {
    expect(() => bodySha256Hex({} as never)).toThrow(TypeError);
  });
});

describe('signingString', () => {
  const base = { method: 'get', target: '/meter/v1/devices?limit=5', bodySha256: EMPTY_BODY_SHA256, timestamp };

  it('joins METHOD, PATH, QUERY, body hash and TIMESTAMP with LF, no trailing LF', () => {
    expect(signingString(base)).toBe(`GET\n/meter/v1/devices\nlimit=5\n${EMPTY_BODY_SHA256}\n${timestamp}`);
    expect(signingString({ ...base, target: '/x' }).split('\n')).toHaveLength(5);
  });

  it.each([
    ['method with space', { method: 'GE T' }],
    ['method with LF', { method: 'GET\n/evil' }],
    ['empty method', { method: '' }],
    ['relative target', { target: 'meter/v1/devices' }],
    ['absolute-form target', { target: 'https://api.example.com/meter/v1/devices' }],
    ['target with LF', { target: '/x\n?a' }],
    ['target with space', { target: '/x y' }],
    ['target with fragment', { target: '/x#frag' }],
    ['target with raw non-ASCII', { target: '/café' }],
    ['upper-case body hash', { bodySha256: EMPTY_BODY_SHA256.toUpperCase() }],
    ['short body hash', { bodySha256: 'abc' }],
    ['fractional timestamp', { timestamp: 1.5 }],
    ['negative timestamp', { timestamp: -1 }],
    ['13-digit timestamp', { timestamp: 1_763_719_200_000 }],
    ['NaN timestamp', { timestamp: Number.NaN }],
    ['string timestamp', { timestamp: '1763719200' as never }],
  ])('rejects %s with a TypeError', (_label, patch) => {
    expect(() => signingString({ ...base, ...patch })).toThrow(TypeError);
  });
});

describe('sign / verifySignature', () => {
  const body = JSON.stringify({ devices: [{ device_id: 1001 }, { device_id: 1002 }] });
  const request = { secretKey, method: 'POST', target: '/meter/v1/dashboard?x=1&y=2', body, timestamp };
  const { signature } = sign(request);

  it('produces lowercase hex HMAC-SHA256 and the string it signed', () => {
    const result = sign(request);
    expect(result.signature).toMatch(/^[0-9a-f]{64}$/);
    expect(result.signingString).toBe(`POST\n/meter/v1/dashboard\nx=1&y=2\n${bodySha256Hex(body)}\n${timestamp}`);
    expect(verifySignature({ ...request, signature })).toBe(true);
  });

  it('gives the SHA-256 of the string it signed, as the gateway reports it', () => {
    const result = sign(request);
    expect(result.signingStringSha256).toBe(createHash('sha256').update(Buffer.from(result.signingString, 'utf8')).digest('hex'));
    expect(signingStringSha256(result.signingString)).toBe(result.signingStringSha256);
    // The hash of a known text, not one taken on trust from node:crypto alone.
    expect(signingStringSha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('refuses an empty secret key when signing', () => {
    expect(() => sign({ ...request, secretKey: '' })).toThrow(TypeError);
  });

  it('fails when the query is reordered after signing', () => {
    expect(verifySignature({ ...request, target: '/meter/v1/dashboard?y=2&x=1', signature })).toBe(false);
  });

  it('fails when the query is re-encoded after signing', () => {
    const sig = sign({ ...request, target: '/meter/v1/projection/bulk?device_ids=1001,1002' }).signature;
    const reencoded = { ...request, target: '/meter/v1/projection/bulk?device_ids=1001%2C1002', signature: sig };
    expect(verifySignature(reencoded)).toBe(false);
    const lower = sign({ ...request, target: '/a?t=x%3D%3D' }).signature;
    expect(verifySignature({ ...request, target: '/a?t=x%3d%3d', signature: lower })).toBe(false);
    expect(verifySignature({ ...request, target: '/a?t=x==', signature: lower })).toBe(false);
  });

  it('fails when the path is re-encoded or the query is dropped or emptied', () => {
    expect(verifySignature({ ...request, target: '/meter/v1/dashboard', signature })).toBe(false);
    expect(verifySignature({ ...request, target: '/meter/v1/Dashboard?x=1&y=2', signature })).toBe(false);
    expect(verifySignature({ ...request, target: '/meter/v1/%64ashboard?x=1&y=2', signature })).toBe(false);
  });

  it('treats "/x" and "/x?" alike (both sign an empty QUERY line)', () => {
    const sig = sign({ ...request, target: '/x' }).signature;
    expect(verifySignature({ ...request, target: '/x?', signature: sig })).toBe(true);
  });

  it('fails when the JSON body is re-serialised with other whitespace or key order', () => {
    const parsed = JSON.parse(body) as unknown;
    expect(verifySignature({ ...request, body: JSON.stringify(parsed, null, 2), signature })).toBe(false);
    expect(verifySignature({ ...request, body: `${body}\n`, signature })).toBe(false);
    expect(verifySignature({ ...request, body: JSON.stringify({ devices: [{ device_id: 1002 }, { device_id: 1001 }] }), signature })).toBe(false);
    expect(verifySignature({ ...request, body: undefined, signature })).toBe(false);
    expect(verifySignature({ ...request, body: Buffer.from(body, 'utf8'), signature })).toBe(true);
  });

  it('fails for a different method, timestamp or secret', () => {
    expect(verifySignature({ ...request, method: 'PUT', signature })).toBe(false);
    expect(verifySignature({ ...request, timestamp: timestamp + 1, signature })).toBe(false);
    expect(verifySignature({ ...request, secretKey: `${secretKey}x`, signature })).toBe(false);
  });

  it('signs the method uppercased, so a lower-case method verifies', () => {
    expect(verifySignature({ ...request, method: 'post', signature })).toBe(true);
  });

  it('returns false without throwing on malformed signatures and unusable input', () => {
    const bad: Array<Partial<Parameters<typeof verifySignature>[0]>> = [
      { signature: '' },
      { signature: 'public' },
      { signature: signature.slice(0, 63) },
      { signature: `${signature}00` },
      { signature: signature.toUpperCase() },
      { signature: `${signature.slice(0, 62)}zz` },
      { signature: undefined as never },
      { signature: 42 as never },
      { secretKey: '' },
      { secretKey: undefined as never },
      { target: 'no-slash' },
      { target: '/x\ny' },
      { method: 'G ET' },
      { timestamp: Number.NaN },
      { timestamp: -5 },
      { body: {} as never },
    ];
    for (const patch of bad) {
      expect(() => verifySignature({ ...request, signature, ...patch })).not.toThrow();
      expect(verifySignature({ ...request, signature, ...patch })).toBe(false);
    }
  });

  it('never throws on random garbage', () => {
    const junk: unknown[] = [undefined, null, '', 'x', 0, -1, Number.NaN, {}, [], Buffer.from('zz'), '\u0000', String.fromCharCode(0xd800)];
    const pick = (i: number) => junk[i % junk.length];
    for (let i = 0; i < 500; i += 1) {
      const input = {
        secretKey: pick(i),
        method: pick(i * 3 + 1),
        target: pick(i * 5 + 2),
        body: pick(i * 7 + 3),
        timestamp: pick(i * 11 + 4),
        signature: pick(i * 13 + 5),
      } as never;
      expect(verifySignature(input)).toBe(false);
    }
  });
});

describe('timestampWithinSkew', () => {
  const now = 1_763_719_500;

  it('defaults to 300 seconds', () => {
    expect(DEFAULT_MAX_SKEW_SECONDS).toBe(300);
  });

  it.each([
    [0, true],
    [299, true],
    [300, true],
    [301, false],
    [-299, true],
    [-300, true],
    [-301, false],
    [100_000, false],
    [-100_000, false],
  ])('request %i s in the past/future (now - ts): %s', (offset, expected) => {
    expect(timestampWithinSkew(now - offset, now)).toBe(expected);
  });

  it('honours a custom window and rejects non-finite input', () => {
    expect(timestampWithinSkew(now - 60, now, 60)).toBe(true);
    expect(timestampWithinSkew(now - 61, now, 60)).toBe(false);
    expect(timestampWithinSkew(Number.NaN, now)).toBe(false);
    expect(timestampWithinSkew(now, Number.POSITIVE_INFINITY)).toBe(false);
    expect(timestampWithinSkew(now, now, Number.NaN)).toBe(false);
    expect(timestampWithinSkew(now, now, -1)).toBe(false);
  });

  it('works with a fractional server clock', () => {
    expect(timestampWithinSkew(now, now + 300.5)).toBe(false);
    expect(timestampWithinSkew(now, now + 299.9)).toBe(true);
  });
});

describe('access key helpers', () => {
  it('classifies keys', () => {
    expect(isSecretAccessKey('sk_live_abc')).toBe(true);
    expect(isPublicAccessKey('sk_live_abc')).toBe(false);
    expect(isPublicAccessKey('pk_live_abc')).toBe(true);
    expect(isSecretAccessKey('pk_live_abc')).toBe(false);
    expect(accessKeyKind('sk_live_abc')).toBe('secret');
    expect(accessKeyKind('pk_live_abc')).toBe('public');
    for (const bad of ['sk_live_', 'sk_test_abc', 'SK_LIVE_abc', 'sk_live_a.b', `pk_live_${'a'.repeat(129)}`, '', undefined, 7]) {
      expect(accessKeyKind(bad)).toBeUndefined();
      expect(isSecretAccessKey(bad)).toBe(false);
      expect(isPublicAccessKey(bad)).toBe(false);
    }
  });

  it('signatureKindAllowed: public keys only "public", secret keys only hex', () => {
    const hex = 'f'.repeat(64);
    expect(signatureKindAllowed('pk_live_abc', 'public')).toBe(true);
    expect(signatureKindAllowed('pk_live_abc', hex)).toBe(false);
    expect(signatureKindAllowed('sk_live_abc', hex)).toBe(true);
    expect(signatureKindAllowed('sk_live_abc', 'public')).toBe(false);
    expect(signatureKindAllowed('sk_live_abc', 'F'.repeat(64))).toBe(false);
    expect(signatureKindAllowed('bogus', 'public')).toBe(false);
    expect(signatureKindAllowed('sk_live_abc', undefined)).toBe(false);
  });
});

describe('authorizationHeader', () => {
  it('formats the canonical header', () => {
    expect(authorizationHeader({ accessKey, signature: 'a'.repeat(64), timestamp })).toBe(
      `SVC-HMAC access_key=${accessKey} signature=${'a'.repeat(64)} timestamp=${timestamp}`,
    );
  });

  it('refuses to emit a header the parser would reject', () => {
    expect(() => authorizationHeader({ accessKey: 'nope', signature: 'public', timestamp })).toThrow(TypeError);
    expect(() => authorizationHeader({ accessKey, signature: 'A'.repeat(64), timestamp })).toThrow(TypeError);
    expect(() => authorizationHeader({ accessKey, signature: 'public', timestamp: 1.5 })).toThrow(TypeError);
  });
});

describe('signRequest', () => {
  const body = '{"devices":[{"device_id":1001}]}';

  it('returns only an authorization header that the verifier accepts', () => {
    const headers = signRequest({ accessKey, secretKey, method: 'POST', target: '/meter/v1/dashboard', body, timestamp });
    expect(Object.keys(headers)).toEqual(['authorization']);
    const parsed = parseAuthorization(headers.authorization);
    if (!parsed.ok) throw new Error(parsed.detail);
    expect(parsed).toMatchObject({ accessKey, keyKind: 'secret', timestamp });
    expect(signatureKindAllowed(parsed.accessKey, parsed.signature)).toBe(true);
    expect(verifySignature({ secretKey, method: 'POST', target: '/meter/v1/dashboard', body, timestamp: parsed.timestamp, signature: parsed.signature })).toBe(
      true,
    );
  });

  it('defaults the timestamp to the current Unix second', () => {
    const before = Math.floor(Date.now() / 1000);
    const parsed = parseAuthorization(signRequest({ accessKey, secretKey, method: 'GET', target: '/meter/v1/devices' }).authorization);
    const after = Math.floor(Date.now() / 1000);
    if (!parsed.ok) throw new Error(parsed.detail);
    expect(parsed.timestamp).toBeGreaterThanOrEqual(before);
    expect(parsed.timestamp).toBeLessThanOrEqual(after);
    expect(timestampWithinSkew(parsed.timestamp, after)).toBe(true);
  });

  it('sends the literal "public" for a public key and needs no secret', () => {
    expect(signRequest({ accessKey: 'pk_live_pub1', method: 'GET', target: '/meter/v1/devices', timestamp })).toEqual({
      authorization: `SVC-HMAC access_key=pk_live_pub1 signature=public timestamp=${timestamp}`,
    });
  });

  it('throws a TypeError on unusable input', () => {
    expect(() => signRequest({ accessKey, method: 'GET', target: '/x', timestamp })).toThrow(/secretKey/);
    expect(() => signRequest({ accessKey: 'sk_test_x', secretKey, method: 'GET', target: '/x', timestamp })).toThrow(TypeError);
    expect(() => signRequest({ accessKey, secretKey, method: 'GET', target: 'https://h/x', timestamp })).toThrow(/origin-form/);
  });
});
