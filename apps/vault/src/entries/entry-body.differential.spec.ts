import { describe, expect, it } from 'vitest';
import { VAULT_ENTRY_FIELDS, VAULT_ENTRY_INPUT, VAULT_ENTRY_TYPES, vaultEntryBody, type VaultEntryType } from '@meter/contracts';
import { readInput } from '@meter/http';
import { validateEntryInput } from './entry-input';

/** A small seeded generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)];
  return { next, pick };
}

const VALID: Record<VaultEntryType, Record<string, string>> = {
  s3_identity: { access_key: 'AKIAEXAMPLE', secret_key: 'wJalrXUtnFEMI/K7MDENG', end_point: 'https://s3.eu-west-1.amazonaws.com', region: 'eu-west-1' },
  azure_identity: {
    tenant_id: 't',
    client_id: 'c',
    client_secret: 's',
    connection_string: 'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=a2V5==',
  },
  gcs_identity: { credentials_json: '{"type":"service_account"}', project_id: 'my-project' },
  api_token_identity: { token: 'tok_0123456789' },
};
const ALL_FIELDS = [...new Set(Object.values(VAULT_ENTRY_FIELDS).flatMap((fields) => Object.keys(fields)))];
const long = (n: number, c = 'x') => c.repeat(n);

function body(seed: number): unknown {
  const { next, pick } = random(seed);
  if (next() < 0.05) return pick([null, [], 'x', 3, true, [{}]]);
  const value = (name: string): unknown =>
    pick([
      'ok-value',
      '',
      ' ',
      '\t',
      null,
      undefined,
      5,
      {},
      [],
      long(100),
      long(101),
      long(1024),
      long(1025),
      long(2048),
      long(2049),
      long(1024, '💧'),
      long(1025, '💧'),
      'https://s3.example.com',
      'http://minio:9000',
      'https://user:pw@s3.example.com',
      'https://s3.example.com/?token=a',
      's3.amazonaws.com',
      'https://host name',
      'AccountName=acct;AccountKey=abc==',
      'AccountName=',
      '{"type":"service_account"}',
      '[1]',
      '{"a":',
      name,
    ]);
  const data = (type: unknown): unknown => {
    if (next() < 0.1) return pick([null, [], 'x', 7, undefined]);
    if (typeof type === 'string' && type in VALID && next() < 0.6) {
      // A complete entry of its type, then none, one or two changes.
      const out: Record<string, unknown> = { ...VALID[type as VaultEntryType] };
      for (let n = Math.floor(next() * 3) - 1; n > 0; n -= 1) {
        const key = pick([...Object.keys(out), ...ALL_FIELDS, 'colour']);
        if (next() < 0.3) delete out[key];
        else out[key] = value(key);
      }
      return out;
    }
    const out: Record<string, unknown> = {};
    const keys = [...ALL_FIELDS, 'colour', 'constructor', 'toString', '__proto__', 'data.x'];
    for (const key of keys) if (next() < 0.45) Object.defineProperty(out, key, { value: value(key), enumerable: true, writable: true, configurable: true });
    return out;
  };
  const chosen: [string, unknown][] = [];
  const type = next() < 0.9 ? pick([...VAULT_ENTRY_TYPES, ...VAULT_ENTRY_TYPES, 'ftp_identity', null, 1, 'constructor', '']) : undefined;
  if (type !== undefined) chosen.push(['type', type]);
  if (next() < 0.85) chosen.push(['namespace', pick(['batch', 'a b', '', '_x', long(100), long(101), null, 3, 'x.y-z_1'])]);
  if (next() < 0.9) chosen.push(['data', data(type)]);
  for (const key of ['extra', 'constructor', '__proto__', 'data.x']) if (next() < 0.08) chosen.push([key, 'x']);
  // Fields in any order: the answer's order must not follow the body's.
  const out: Record<string, unknown> = {};
  for (const [key, v] of chosen.sort(() => next() - 0.5)) Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

const oldErrors = (input: unknown) => {
  const result = validateEntryInput(input);
  return result.ok ? { ok: true, value: result.entry } : result;
};

/** The contract schema answers every body as the hand checker it replaces did: the same errors, in the same order. */
describe('vaultEntryBody against validateEntryInput', () => {
  it('gives the same answer on 40,000 random bodies, as sent and after JSON', () => {
    let failures = 0;
    const outcomes = { accepted: 0, refused: 0 };
    for (let seed = 1; seed <= 20_000; seed += 1) {
      const input = body(seed);
      for (const sent of [input, input === undefined ? input : JSON.parse(JSON.stringify(input))]) {
        const was = oldErrors(sent);
        const now = readInput(vaultEntryBody, sent, VAULT_ENTRY_INPUT);
        outcomes[was.ok ? 'accepted' : 'refused'] += 1;
        if (was.ok && now.ok) {
          expect(now.value, `seed ${seed}`).toEqual(was.value);
          continue;
        }
        if (failures < 5 && JSON.stringify(was) !== JSON.stringify(now)) {
          failures += 1;
          expect(now, `seed ${seed}: ${JSON.stringify(sent)?.slice(0, 300)}`).toEqual(was);
        }
      }
    }
    // Both answers are exercised, not only refusals.
    expect(outcomes.accepted).toBeGreaterThan(1000);
    expect(outcomes.refused).toBeGreaterThan(1000);
  }, 60_000);
});
