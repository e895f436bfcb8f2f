import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { authorizationHeader, parseAuthorization } from './index';
import { parseAnyOrder } from './parse-authorization';

const KEY = 'sk_live_abcDEF012_-';
const SIG = 'a'.repeat(32) + '0123456789abcdef'.repeat(2);
const TS = 1763719200;
const VALID = `SVC-HMAC access_key=${KEY} signature=${SIG} timestamp=${TS}`;

function expectMalformed(header: string): void {
  const result = parseAuthorization(header);
  expect(result.ok).toBe(false);
  if (!result.ok) {
    expect(result.code).toBe('malformed_authorization');
    expect(result.detail.length).toBeGreaterThan(0);
  }
}

/** Small deterministic PRNG (mulberry32) so a fuzz failure is reproducible. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('parseAuthorization: valid headers', () => {
  it('parses the canonical form', () => {
    expect(parseAuthorization(VALID)).toEqual({ ok: true, accessKey: KEY, keyKind: 'secret', signature: SIG, timestamp: TS });
  });

  it('accepts the three fields in any order', () => {
    const fields = [`access_key=${KEY}`, `signature=${SIG}`, `timestamp=${TS}`];
    const orders = [
      [0, 1, 2],
      [0, 2, 1],
      [1, 0, 2],
      [1, 2, 0],
      [2, 0, 1],
      [2, 1, 0],
    ];
    for (const order of orders) {
      const header = `SVC-HMAC ${order.map((i) => fields[i]).join(' ')}`;
      expect(parseAuthorization(header)).toMatchObject({ ok: true, accessKey: KEY, signature: SIG, timestamp: TS });
    }
  });

  it('accepts a public key with the literal signature "public"', () => {
    expect(parseAuthorization(`SVC-HMAC access_key=pk_live_x signature=public timestamp=${TS}`)).toEqual({
      ok: true,
      accessKey: 'pk_live_x',
      keyKind: 'public',
      signature: 'public',
      timestamp: TS,
    });
  });

  it('leaves the key/signature kind policy to the caller (syntax only)', () => {
    expect(parseAuthorization(`SVC-HMAC access_key=${KEY} signature=public timestamp=${TS}`).ok).toBe(true);
    expect(parseAuthorization(`SVC-HMAC access_key=pk_live_x signature=${SIG} timestamp=${TS}`).ok).toBe(true);
  });

  it('matches the scheme ASCII case-insensitively (RFC 9110 11.1)', () => {
    expect(parseAuthorization(VALID.replace('SVC-HMAC', 'svc-hmac')).ok).toBe(true);
    expect(parseAuthorization(VALID.replace('SVC-HMAC', 'Svc-Hmac')).ok).toBe(true);
    // U+017F LATIN SMALL LETTER LONG S upper-cases to "S" but is not ASCII.
    expectMalformed(VALID.replace('SVC-HMAC', '\u017fVC-HMAC'));
  });

  it('accepts token edge cases: 1 and 128 key characters, 12-digit and zero timestamps', () => {
    expect(parseAuthorization(`SVC-HMAC access_key=sk_live_a signature=${SIG} timestamp=0`)).toMatchObject({ ok: true, timestamp: 0 });
    const long = `sk_live_${'Z'.repeat(128)}`;
    expect(parseAuthorization(`SVC-HMAC access_key=${long} signature=${SIG} timestamp=999999999999`)).toMatchObject({
      ok: true,
      accessKey: long,
      timestamp: 999_999_999_999,
    });
  });
});

describe('parseAuthorization: missing', () => {
  it.each([
    ['undefined', undefined],
    ['null', null],
    ['empty string', ''],
  ])('%s -> missing_authorization', (_label, header) => {
    expect(parseAuthorization(header)).toMatchObject({ ok: false, code: 'missing_authorization' });
  });
});

describe('parseAuthorization: malformed', () => {
  const cases: Array<[string, string]> = [
    ['other scheme', `Bearer abc.def.ghi`],
    ['HMAC-looking other scheme', VALID.replace('SVC-HMAC', 'SVC-HMAC2')],
    ['scheme only', 'SVC-HMAC'],
    ['whitespace only', '   '],
    ['leading space', ` ${VALID}`],
    ['trailing space', `${VALID} `],
    ['double space', VALID.replace(' signature', '  signature')],
    ['tab separator', VALID.replace(' signature', '\tsignature')],
    ['comma separators', `SVC-HMAC access_key=${KEY},signature=${SIG},timestamp=${TS}`],
    ['comma and space separators', `SVC-HMAC access_key=${KEY}, signature=${SIG}, timestamp=${TS}`],
    ['missing field', `SVC-HMAC access_key=${KEY} signature=${SIG}`],
    ['extra field', `${VALID} nonce=1`],
    ['duplicate field', `SVC-HMAC access_key=${KEY} signature=${SIG} signature=${SIG}`],
    ['duplicate field, four fields', `${VALID} timestamp=${TS}`],
    ['unknown field instead of one', `SVC-HMAC access_key=${KEY} sig=${SIG} timestamp=${TS}`],
    ['upper-case field name', `SVC-HMAC ACCESS_KEY=${KEY} signature=${SIG} timestamp=${TS}`],
    ['field without =', `SVC-HMAC access_key ${KEY} signature=${SIG}`],
    ['field with empty name', `SVC-HMAC =${KEY} signature=${SIG} timestamp=${TS}`],
    ['__proto__ field', `SVC-HMAC __proto__=${KEY} signature=${SIG} timestamp=${TS}`],
    ['quoted value', `SVC-HMAC access_key="${KEY}" signature=${SIG} timestamp=${TS}`],
    ['empty access_key', `SVC-HMAC access_key= signature=${SIG} timestamp=${TS}`],
    ['access_key without prefix', `SVC-HMAC access_key=abc signature=${SIG} timestamp=${TS}`],
    ['access_key with test prefix', `SVC-HMAC access_key=sk_test_abc signature=${SIG} timestamp=${TS}`],
    ['access_key prefix only', `SVC-HMAC access_key=sk_live_ signature=${SIG} timestamp=${TS}`],
    ['access_key with bad char', `SVC-HMAC access_key=sk_live_ab.c signature=${SIG} timestamp=${TS}`],
    ['access_key with =', `SVC-HMAC access_key=sk_live_ab=c signature=${SIG} timestamp=${TS}`],
    ['access_key too long', `SVC-HMAC access_key=sk_live_${'a'.repeat(129)} signature=${SIG} timestamp=${TS}`],
    ['upper-case prefix', `SVC-HMAC access_key=SK_LIVE_abc signature=${SIG} timestamp=${TS}`],
    ['empty signature', `SVC-HMAC access_key=${KEY} signature= timestamp=${TS}`],
    ['upper-case hex signature', `SVC-HMAC access_key=${KEY} signature=${SIG.toUpperCase()} timestamp=${TS}`],
    ['short signature', `SVC-HMAC access_key=${KEY} signature=${SIG.slice(1)} timestamp=${TS}`],
    ['long signature', `SVC-HMAC access_key=${KEY} signature=${SIG}0 timestamp=${TS}`],
    ['non-hex signature', `SVC-HMAC access_key=${KEY} signature=${'g'.repeat(64)} timestamp=${TS}`],
    ['base64 signature', `SVC-HMAC access_key=${KEY} signature=${Buffer.from(SIG, 'hex').toString('base64')} timestamp=${TS}`],
    ['PUBLIC signature', `SVC-HMAC access_key=pk_live_x signature=PUBLIC timestamp=${TS}`],
    ['empty timestamp', `SVC-HMAC access_key=${KEY} signature=${SIG} timestamp=`],
    ['negative timestamp', `SVC-HMAC access_key=${KEY} signature=${SIG} timestamp=-${TS}`],
    ['plus-signed timestamp', `SVC-HMAC access_key=${KEY} signature=${SIG} timestamp=+${TS}`],
    ['leading-zero timestamp', `SVC-HMAC access_key=${KEY} signature=${SIG} timestamp=0${TS}`],
    ['fractional timestamp', `SVC-HMAC access_key=${KEY} signature=${SIG} timestamp=${TS}.5`],
    ['exponent timestamp', `SVC-HMAC access_key=${KEY} signature=${SIG} timestamp=1e9`],
    ['hex timestamp', `SVC-HMAC access_key=${KEY} signature=${SIG} timestamp=0x10`],
    ['milliseconds timestamp (13 digits)', `SVC-HMAC access_key=${KEY} signature=${SIG} timestamp=${TS}000`],
    ['ISO timestamp', `SVC-HMAC access_key=${KEY} signature=${SIG} timestamp=2025-11-21T10:00:00Z`],
    ['unicode digits timestamp', `SVC-HMAC access_key=${KEY} signature=${SIG} timestamp=\u0661\u0662\u0663`],
    ['very long header', `${VALID}${'x'.repeat(5000)}`],
  ];

  it.each(cases)('%s -> malformed_authorization', (_label, header) => {
    expectMalformed(header);
  });

  it('never echoes the received header in detail', () => {
    const marker = 'ZZ_marker_ZZ';
    for (const header of [`Bearer ${marker}`, `SVC-HMAC ${marker}=1 signature=${SIG} timestamp=1`, `SVC-HMAC access_key=${marker}`]) {
      const result = parseAuthorization(header);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.detail).not.toContain(marker);
    }
  });

  it('rejects non-string values at runtime (e.g. a duplicated header array) without throwing', () => {
    for (const value of [['a', 'b'], 42, {}, Symbol('x'), true]) {
      expect(parseAuthorization(value as never)).toMatchObject({ ok: false, code: 'malformed_authorization' });
    }
  });
});

describe('parseAuthorization: fuzz', () => {
  const random = prng(0x5eed);
  // A lone surrogate is built at run time (SWC rejects one in a literal).
  const loneSurrogate = String.fromCharCode(0xd800);
  const alphabet = [
    ...'SVC-HMAC access_key=signature=timestamp=sk_live_pk_live_public0123456789abcdef \t\r\n=,"\\\u0000\u00ff\u017f',
    '\u{1f600}',
    loneSurrogate,
  ];

  function randomString(maxLength: number): string {
    const length = Math.floor(random() * maxLength);
    let out = '';
    for (let i = 0; i < length; i += 1) out += alphabet[Math.floor(random() * alphabet.length)];
    return out;
  }

  function mutate(header: string): string {
    const chars = [...header];
    const edits = 1 + Math.floor(random() * 3);
    for (let i = 0; i < edits; i += 1) {
      const at = Math.floor(random() * (chars.length + 1));
      const op = Math.floor(random() * 3);
      const ch = alphabet[Math.floor(random() * alphabet.length)];
      if (op === 0) chars.splice(at, 1);
      else if (op === 1) chars.splice(at, 0, ch);
      else chars[at] = ch;
    }
    return chars.join('');
  }

  it('never throws on random strings, random bytes or mutated valid headers, and always answers a known shape', () => {
    const inputs: string[] = [];
    for (let i = 0; i < 3000; i += 1) inputs.push(randomString(300));
    for (let i = 0; i < 1000; i += 1) inputs.push(randomBytes(Math.floor(random() * 400)).toString('latin1'));
    for (let i = 0; i < 3000; i += 1) inputs.push(mutate(VALID));

    let accepted = 0;
    for (const input of inputs) {
      let result: ReturnType<typeof parseAuthorization> | undefined;
      expect(() => {
        result = parseAuthorization(input);
      }).not.toThrow();
      if (result === undefined) throw new Error('no result');
      if (result.ok) {
        // Anything accepted must re-serialise to a header that parses the same.
        expect(Number.isSafeInteger(result.timestamp)).toBe(true);
        expect(result.accessKey).toMatch(/^(?:sk|pk)_live_[A-Za-z0-9_-]{1,128}$/);
        expect(result.signature).toMatch(/^(?:[0-9a-f]{64}|public)$/);
        expect(parseAuthorization(authorizationHeader(result))).toEqual(result);
        accepted += 1;
      } else {
        expect(['missing_authorization', 'malformed_authorization']).toContain(result.code);
        expect(typeof result.detail).toBe('string');
      }
    }
    // Some mutations (e.g. a changed hex digit) stay valid: the accepted path is exercised too.
    expect(accepted).toBeGreaterThan(0);
  });

  it('answers exactly what the whole grammar answers: the canonical-form shortcut changes no result', () => {
    const inputs = [VALID, VALID.toLowerCase(), VALID.replace('SVC-HMAC', 'svc-Hmac'), VALID.replace(KEY, 'pk_live_x').replace(SIG, 'public')];
    for (let i = 0; i < 3000; i += 1) inputs.push(mutate(VALID));
    for (let i = 0; i < 1000; i += 1) inputs.push(randomString(300));
    let canonical = 0;
    for (const input of inputs) {
      expect(parseAuthorization(input)).toEqual(parseAnyOrder(input));
      if (parseAuthorization(input).ok) canonical += 1;
    }
    expect(canonical).toBeGreaterThan(3);
  });
});
