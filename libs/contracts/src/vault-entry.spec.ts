import { describe, expect, it } from 'vitest';
import { readInput } from '@meter/http';
import { VAULT_ENTRY_FIELDS, type VaultEntryType } from './vault';
import { characterCount, VAULT_ENTRY_INPUT, vaultEntryBody } from './vault-entry';

const VALID: Record<VaultEntryType, Record<string, string>> = {
  s3_identity: { access_key: 'AKIAEXAMPLE', secret_key: 'wJalrXUtnFEMI/K7MDENG', end_point: 'https://s3.eu-west-1.amazonaws.com', region: 'eu-west-1' },
  azure_identity: {
    tenant_id: '72f988bf-86f1-41af-91ab-2d7cd011db47',
    client_id: '00000000-1111-2222-3333-444444444444',
    client_secret: 'azure-secret-value',
    connection_string: 'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=a2V5a2V5a2V5==;EndpointSuffix=core.windows.net',
  },
  gcs_identity: { credentials_json: '{"type":"service_account","private_key":"-----BEGIN"}', project_id: 'my-project' },
  api_token_identity: { token: 'tok_0123456789' },
};

/** The vault reads the body so (apps/vault, VaultEntriesService.upsert). */
const validateEntryInput = (body: unknown) => readInput(vaultEntryBody, body, VAULT_ENTRY_INPUT);
const errorsOf = (body: unknown) => {
  const result = validateEntryInput(body);
  return result.ok ? [] : result.errors;
};
const body = (type: VaultEntryType, data: Record<string, unknown>) => ({ namespace: 'batch', type, data });

describe('vaultEntryBody', () => {
  it.each(Object.keys(VALID) as VaultEntryType[])('accepts a complete %s', (type) => {
    expect(validateEntryInput(body(type, VALID[type]))).toEqual({ ok: true, value: { namespace: 'batch', type, data: VALID[type] } });
  });

  it('refuses a body that is not an object', () => {
    for (const bad of [null, [], 'x', 3]) expect(errorsOf(bad)).toEqual([{ field: 'body', message: 'must be a JSON object' }]);
  });

  it('names missing namespace, type and data, and unknown top-level fields', () => {
    expect(errorsOf({ extra: 1 }).map((e) => e.field)).toEqual(['extra', 'namespace', 'type', 'data']);
  });

  it('refuses an unknown type, a bad namespace and a non-object data', () => {
    expect(errorsOf({ namespace: 'a b', type: 'ftp_identity', data: [] }).map((e) => e.field)).toEqual(['namespace', 'type', 'data']);
    expect(errorsOf({ namespace: 'x'.repeat(101), type: 'api_token_identity', data: { token: 't' } }).map((e) => e.field)).toEqual(['namespace']);
    expect(errorsOf({ namespace: 'x'.repeat(100), type: 'api_token_identity', data: { token: 't' } })).toEqual([]);
  });

  for (const [type, fields] of Object.entries(VAULT_ENTRY_FIELDS) as [VaultEntryType, Record<string, number>][]) {
    for (const [name, max] of Object.entries(fields)) {
      it(`${type}: data.${name} is required, a non-empty string, at most ${max} characters`, () => {
        const without = { ...VALID[type] };
        delete without[name];
        expect(errorsOf(body(type, without))).toEqual([{ field: `data.${name}`, message: 'is required' }]);
        expect(errorsOf(body(type, { ...VALID[type], [name]: 5 }))).toEqual([{ field: `data.${name}`, message: 'must be a string' }]);
        expect(errorsOf(body(type, { ...VALID[type], [name]: ' ' }))).toEqual([{ field: `data.${name}`, message: 'must not be empty' }]);
        const atMax = fitTo(name, VALID[type][name], max);
        expect(characterCount(atMax)).toBe(max);
        expect(errorsOf(body(type, { ...VALID[type], [name]: atMax }))).toEqual([]);
        const over = fitTo(name, VALID[type][name], max + 1);
        expect(errorsOf(body(type, { ...VALID[type], [name]: over }))).toEqual([
          { field: `data.${name}`, message: `must be at most ${max} characters (got ${max + 1})` },
        ]);
      });
    }
    it(`${type}: refuses a field of no type and a field of another type`, () => {
      const foreign = type === 'api_token_identity' ? 'region' : 'token';
      expect(errorsOf(body(type, { ...VALID[type], colour: 'x', [foreign]: 'y' })).map((e) => e.field)).toEqual(['data.colour', `data.${foreign}`]);
    });
  }

  it('refuses data fields named like Object.prototype members', () => {
    const inherited = { constructor: 'x', toString: 'y', valueOf: { deep: 1 }, __defineGetter__: 'z' };
    expect(errorsOf(body('api_token_identity', { ...VALID.api_token_identity, ...inherited })).map((e) => e.field)).toEqual([
      'data.constructor',
      'data.toString',
      'data.valueOf',
      'data.__defineGetter__',
    ]);
  });

  it('counts characters, not UTF-16 units', () => {
    const token = '💧'.repeat(1024);
    expect(errorsOf(body('api_token_identity', { token }))).toEqual([]);
  });

  it('wants end_point to be an http(s) URL', () => {
    for (const end_point of ['s3.amazonaws.com', 'ftp://host/x', 'https://', 'https://host name', 'javascript:alert(1)']) {
      expect(errorsOf(body('s3_identity', { ...VALID.s3_identity, end_point })).map((e) => e.field)).toEqual(['data.end_point']);
    }
    expect(errorsOf(body('s3_identity', { ...VALID.s3_identity, end_point: 'http://minio:9000' }))).toEqual([]);
  });

  it('refuses an end_point with a user, a password or a query: it is listed in clear', () => {
    for (const end_point of ['https://AKIA:secret@s3.example.com', 'https://user@s3.example.com', 'https://s3.example.com/?token=abc']) {
      expect(errorsOf(body('s3_identity', { ...VALID.s3_identity, end_point }))).toEqual([
        { field: 'data.end_point', message: 'must carry no user name, password or query string (put the keys in access_key and secret_key)' },
      ]);
    }
  });

  it('wants connection_string to be a URL or a well-formed Azure connection string', () => {
    const good = [
      'https://acct.blob.core.windows.net/?sv=2022-11-02&sig=abc%3D',
      'BlobEndpoint=https://acct.blob.core.windows.net/;SharedAccessSignature=sv=2022&sig=x=',
      'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=abc==;',
    ];
    const bad = [
      'not a url',
      'AccountKey=abc==',
      'DefaultEndpointsProtocol=ftp;AccountName=acct',
      'AccountName=acct;BlobEndpoint=not-a-url',
      'AccountName=acct;;AccountKey=x',
      'AccountName=acct;AccountName=other',
      'AccountName=',
      '=value;AccountName=a',
    ];
    for (const connection_string of good) expect(errorsOf(body('azure_identity', { ...VALID.azure_identity, connection_string }))).toEqual([]);
    for (const connection_string of bad) {
      expect(errorsOf(body('azure_identity', { ...VALID.azure_identity, connection_string })).map((e) => e.field)).toEqual(['data.connection_string']);
    }
  });

  it('wants credentials_json to hold a JSON object', () => {
    for (const credentials_json of ['[1,2]', '"text"', 'null', '{"a":', '42']) {
      expect(errorsOf(body('gcs_identity', { ...VALID.gcs_identity, credentials_json })).map((e) => e.field)).toEqual(['data.credentials_json']);
    }
  });

  it('reports every violation at once', () => {
    const errors = errorsOf(body('s3_identity', { access_key: '', end_point: 'nope', region: 'r'.repeat(101), extra: 'x' }));
    expect(errors.map((e) => e.field)).toEqual(['data.extra', 'data.access_key', 'data.secret_key', 'data.end_point', 'data.region']);
  });
});

/** A valid value of exactly `length` characters for the field (URLs and JSON stay well formed). */
function fitTo(name: string, sample: string, length: number): string {
  if (name === 'end_point') return `https://h.example/${'p'.repeat(length - 'https://h.example/'.length)}`;
  if (name === 'connection_string') return `https://h.example/${'p'.repeat(length - 'https://h.example/'.length)}`;
  if (name === 'credentials_json') return `{"k":"${'v'.repeat(length - 8)}"}`;
  return sample.slice(0, 1).padEnd(length, 'x');
}
