import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { jetstreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VAULT_ENTRY_FIELDS, VAULT_ENTRY_TYPES, VAULT_NON_SECRET_FIELDS, platformStreams, vaultAuditEvent } from '@meter/contracts';
import { connectNats } from '@meter/messaging';
import { eventually, httpStatus, isolatedInfra, PlatformProcess, startReadyApp, type IsolatedInfra } from '@meter/testing';
import { ringEntry, secretNeedles, secretsFor, vaultRequest } from './vault-fixtures';

const run = promisify(execFile);

describe('the vault service over NATS request/reply', () => {
  let infra: IsolatedInfra;
  let vault: PlatformProcess;
  let nc: NatsConnection;
  let db: Client;
  let port: number;
  const secrets = secretsFor('main');
  const allNeedles: string[] = [];
  const call = (operation: Parameters<typeof vaultRequest>[2], payload: unknown) => vaultRequest(nc, infra.bus, operation, payload);
  const upsert = (org: string, entry: unknown) => call('upsert', { org_id: org, actor: 'admin-1', entry });

  beforeAll(async () => {
    infra = await isolatedInfra();
    ({ process: vault, port } = await startReadyApp('vault', infra.env({ VAULT_ROOT_KEYRING: ringEntry('k1'), LOG_LEVEL: 'debug' })));
    nc = await connectNats(infra.natsUrl, 'vault-test');
    // The subscriptions start right after the HTTP port opens; wait until they answer.
    await eventually(async () => (await call('list', { org_id: 'warmup', actor: 't' })).ok, 10_000, 'vault answering');
    db = new Client({ connectionString: infra.databaseUrl });
    await db.connect();
    for (const data of Object.values(secrets)) allNeedles.push(...secretNeedles(data));
  });

  afterAll(async () => {
    await db?.end();
    await nc?.close();
    await vault?.stop();
    await infra?.cleanup();
  });

  it('serves no HTTP routes besides probes and metrics', async () => {
    expect(await httpStatus(`http://127.0.0.1:${port}/organization-vault`)).toBe(404);
    expect(await httpStatus(`http://127.0.0.1:${port}/healthz`)).toBe(200);
  });

  it.each(VAULT_ENTRY_TYPES)('stores a %s and lists its non-secret fields in clear, masked hints of the secrets', async (type) => {
    const reply = await upsert('org-a', { namespace: 'batch', type, data: secrets[type] });
    expect(reply).toMatchObject({ ok: true, result: { version: 1, created: true } });
    const id = reply.ok ? reply.result.id : '';
    const list = await call('list', { org_id: 'org-a', actor: 'admin-1' });
    expect(list.ok).toBe(true);
    const entry = list.ok && list.result.entries.find((e: { id: string }) => e.id === id);
    expect(entry).toMatchObject({ id, namespace: 'batch', type, version: 1 });
    expect(Object.keys(entry.fields).sort()).toEqual(Object.keys(VAULT_ENTRY_FIELDS[type]).sort());
    for (const [name, masked] of Object.entries(entry.fields as Record<string, string>)) {
      const value = secrets[type][name]!;
      if (VAULT_NON_SECRET_FIELDS.has(name)) {
        expect(masked, name).toBe(value);
        continue;
      }
      const shown = masked.replace(/^\*\*\*\*/, '');
      expect(masked.startsWith('****')).toBe(true);
      expect(shown.length).toBeLessThanOrEqual(Math.min(4, Math.floor(value.length / 4)));
      expect(value.endsWith(shown)).toBe(true);
    }
    for (const needle of secretNeedles(secrets[type])) expect(JSON.stringify(list)).not.toContain(needle);
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(metrics).toMatch(/meter_vault_requests_total\{operation="upsert",outcome="ok"\} [1-9]/);
  });

  it('upserts by (namespace, type): same id, next version, new data', async () => {
    const first = await upsert('org-b', { namespace: 'batch', type: 'api_token_identity', data: { token: 'first-token-value' } });
    const second = await upsert('org-b', { namespace: 'batch', type: 'api_token_identity', data: { token: 'second-token-value' } });
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok) return;
    expect(second.result).toEqual({ id: first.result.id, version: 2, created: false });
    const other = await upsert('org-b', { namespace: 'archive', type: 'api_token_identity', data: { token: 'third-token-value' } });
    expect(other.ok && other.result.id).not.toBe(first.result.id);
    const opened = await call('open', { org_id: 'org-b', actor: 'worker', namespace: 'batch', type: 'api_token_identity' });
    expect(opened).toEqual({
      ok: true,
      result: { id: first.result.id, namespace: 'batch', type: 'api_token_identity', version: 2, data: { token: 'second-token-value' } },
    });
    const rows = await db.query(`SELECT count(*)::int AS n FROM vault.entries WHERE org_id = 'org-b'`);
    expect(rows.rows[0].n).toBe(2);
  });

  it('answers concurrent first upserts of one (namespace, type) with one id', async () => {
    const replies = await Promise.all(
      [1, 2, 3, 4].map((n) => upsert('org-race', { namespace: 'batch', type: 'api_token_identity', data: { token: `racing-token-${n}` } })),
    );
    expect(replies.every((r) => r.ok)).toBe(true);
    const ids = new Set(replies.map((r) => (r.ok ? r.result.id : '')));
    expect(ids.size).toBe(1);
    expect(replies.map((r) => (r.ok ? r.result.version : 0)).sort()).toEqual([1, 2, 3, 4]);
  });

  it('opens an entry for integration workers with its plaintext', async () => {
    const opened = await call('open', { org_id: 'org-a', actor: 'worker', namespace: 'batch', type: 's3_identity' });
    expect(opened).toMatchObject({ ok: true, result: { data: secrets.s3_identity } });
  });

  describe('validation: each violation names its field', () => {
    const valid = secretsFor('valid');
    const fieldsOf = async (entry: unknown) => {
      const reply = await upsert('org-v', entry);
      expect(reply.ok).toBe(false);
      if (reply.ok) return [];
      expect(reply.error.code).toBe('validation_failed');
      return reply.error.errors!.map((e) => e.field);
    };

    it('refuses a body that is not an object, and missing or unknown top-level fields', async () => {
      expect(await fieldsOf('text')).toEqual(['body']);
      expect(await fieldsOf([1])).toEqual(['body']);
      expect(await fieldsOf({ namespace: 'batch', type: 'api_token_identity', data: { token: 't' }, extra: 1 })).toEqual(['extra']);
      expect(await fieldsOf({ type: 'api_token_identity', data: { token: 't' } })).toEqual(['namespace']);
      expect(await fieldsOf({ namespace: 'batch', data: { token: 't' } })).toEqual(['type']);
      expect(await fieldsOf({ namespace: 'batch', type: 'api_token_identity' })).toEqual(['data']);
      expect(await fieldsOf({ namespace: 'batch', type: 'ftp_identity', data: {} })).toEqual(['type']);
      expect(await fieldsOf({ namespace: 'batch', type: 'api_token_identity', data: 'token' })).toEqual(['data']);
      expect(await fieldsOf({ namespace: 'no spaces', type: 'api_token_identity', data: { token: 't' } })).toEqual(['namespace']);
    });

    for (const type of VAULT_ENTRY_TYPES) {
      it(`${type}: every field required, no unknown ones, at most its maximum length`, async () => {
        const limits: Record<string, number> = VAULT_ENTRY_FIELDS[type];
        for (const [name, max] of Object.entries(limits)) {
          const without = { ...valid[type] };
          delete without[name];
          expect(await fieldsOf({ namespace: 'batch', type, data: without })).toEqual([`data.${name}`]);
          expect(await fieldsOf({ namespace: 'batch', type, data: { ...valid[type], [name]: '' } })).toEqual([`data.${name}`]);
          expect(await fieldsOf({ namespace: 'batch', type, data: { ...valid[type], [name]: 42 } })).toEqual([`data.${name}`]);
          const reply = await upsert('org-v', { namespace: 'limits', type, data: { ...valid[type], [name]: ofLength(name, max) } });
          expect(reply.ok, `${type}.${name} at ${max} characters`).toBe(true);
          expect(await fieldsOf({ namespace: 'limits', type, data: { ...valid[type], [name]: ofLength(name, max + 1) } })).toEqual([`data.${name}`]);
        }
        expect(await fieldsOf({ namespace: 'batch', type, data: { ...valid[type], unknown_field: 'x' } })).toEqual(['data.unknown_field']);
      });
    }

    it('wants end_point and connection_string as URLs, credentials_json as a JSON object', async () => {
      expect(await fieldsOf({ namespace: 'batch', type: 's3_identity', data: { ...valid.s3_identity, end_point: 's3.amazonaws.com' } })).toEqual([
        'data.end_point',
      ]);
      expect(await fieldsOf({ namespace: 'batch', type: 'azure_identity', data: { ...valid.azure_identity, connection_string: 'not a url' } })).toEqual([
        'data.connection_string',
      ]);
      expect(
        await fieldsOf({ namespace: 'batch', type: 'azure_identity', data: { ...valid.azure_identity, connection_string: 'AccountName=a;BlobEndpoint=nope' } }),
      ).toEqual(['data.connection_string']);
      const sasUrl = await upsert('org-v', {
        namespace: 'sas',
        type: 'azure_identity',
        data: { ...valid.azure_identity, connection_string: 'https://acct.blob.core.windows.net/?sv=2022-11-02&sig=abc' },
      });
      expect(sasUrl.ok).toBe(true);
      for (const credentials_json of ['[1]', 'null', '{"broken":', '"a string"']) {
        expect(await fieldsOf({ namespace: 'batch', type: 'gcs_identity', data: { ...valid.gcs_identity, credentials_json } })).toEqual([
          'data.credentials_json',
        ]);
      }
    });

    it('stores nothing for a refused entry', async () => {
      await fieldsOf({ namespace: 'refused', type: 'api_token_identity', data: { token: 'x'.repeat(1025) } });
      const rows = await db.query(`SELECT 1 FROM vault.entries WHERE org_id = 'org-v' AND namespace = 'refused'`);
      expect(rows.rowCount).toBe(0);
    });
  });

  it('refuses a malformed request envelope as bad_request without echoing values', async () => {
    const reply = await call('upsert', { org_id: 'bad org id!', actor: 'a', entry: { token: 'do-not-echo-me' } });
    expect(reply).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(JSON.stringify(reply)).not.toContain('do-not-echo-me');
    const notJson = await nc.request(infra.bus.subject('vault.rpc.list'), 'not json', { timeout: 5000 });
    expect(JSON.parse(notJson.string())).toMatchObject({ ok: false, error: { code: 'bad_request' } });
  });

  it('keeps organizations apart: another organization sees, opens and deletes nothing (404)', async () => {
    const mine = await upsert('org-c', { namespace: 'batch', type: 'api_token_identity', data: { token: 'org-c-token-value' } });
    if (!mine.ok) throw new Error('upsert failed');
    const theirs = await call('list', { org_id: 'org-d', actor: 'admin-2' });
    expect(theirs).toEqual({ ok: true, result: { entries: [] } });
    expect(await call('open', { org_id: 'org-d', actor: 'w', namespace: 'batch', type: 'api_token_identity' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
    expect(await call('delete', { org_id: 'org-d', actor: 'admin-2', entry_id: mine.result.id })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await call('delete', { org_id: 'org-c', actor: 'admin-1', entry_id: 'not-a-uuid' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const still = await call('open', { org_id: 'org-c', actor: 'w', namespace: 'batch', type: 'api_token_identity' });
    expect(still).toMatchObject({ ok: true, result: { data: { token: 'org-c-token-value' } } });
  });

  it('deletes an entry: the row and its ciphertext are gone, an audit event remains', async () => {
    const created = await upsert('org-e', { namespace: 'batch', type: 'api_token_identity', data: { token: 'to-be-deleted-token' } });
    if (!created.ok) throw new Error('upsert failed');
    const sealed = (await db.query(`SELECT sealed_data FROM vault.entries WHERE id = $1`, [created.result.id])).rows[0].sealed_data as string;
    expect(await call('delete', { org_id: 'org-e', actor: 'admin-1', entry_id: created.result.id })).toEqual({ ok: true, result: { id: created.result.id } });
    expect((await db.query(`SELECT 1 FROM vault.entries WHERE id = $1`, [created.result.id])).rowCount).toBe(0);
    const dump = await dumpDatabase(infra.databaseUrl);
    expect(dump).not.toContain(sealed.split('.')[3]);
    expect(await call('delete', { org_id: 'org-e', actor: 'admin-1', entry_id: created.result.id })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await call('list', { org_id: 'org-e', actor: 'admin-1' })).toEqual({ ok: true, result: { entries: [] } });
    const audit = await db.query(`SELECT payload FROM vault.audit_outbox WHERE payload->>'type' = 'entry.deleted' AND payload->>'entry_id' = $1`, [
      created.result.id,
    ]);
    expect(audit.rows[0].payload).toMatchObject({ org_id: 'org-e', actor: 'admin-1', namespace: 'batch', entry_type: 'api_token_identity' });
  });

  describe('tampering: a ciphertext moved to another row does not open', () => {
    it('within an organization, onto another entry', async () => {
      const a = await upsert('org-t', { namespace: 'one', type: 'api_token_identity', data: { token: 'tamper-one-token' } });
      const b = await upsert('org-t', { namespace: 'two', type: 'api_token_identity', data: { token: 'tamper-two-token' } });
      if (!a.ok || !b.ok) throw new Error('upsert failed');
      await db.query(`UPDATE vault.entries SET sealed_data = (SELECT sealed_data FROM vault.entries WHERE id = $1) WHERE id = $2`, [a.result.id, b.result.id]);
      const opened = await call('open', { org_id: 'org-t', actor: 'w', namespace: 'two', type: 'api_token_identity' });
      expect(opened).toMatchObject({ ok: false, error: { code: 'unreadable' } });
      expect(JSON.stringify(opened)).not.toContain('tamper-one-token');
      const list = await call('list', { org_id: 'org-t', actor: 'admin' });
      const listed = list.ok ? list.result.entries : [];
      expect(listed.find((e: { id: string }) => e.id === b.result.id)).toMatchObject({ unreadable: true, fields: {} });
      expect(listed.find((e: { id: string }) => e.id === a.result.id)).toMatchObject({ fields: { token: '****oken' } });
      expect(JSON.stringify(list)).not.toContain('tamper-one-token');
    });

    it('onto an older version of the same row', async () => {
      const v1 = await upsert('org-t', { namespace: 'versions', type: 'api_token_identity', data: { token: 'version-one-token' } });
      if (!v1.ok) throw new Error('upsert failed');
      const oldSealed = (await db.query(`SELECT sealed_data FROM vault.entries WHERE id = $1`, [v1.result.id])).rows[0].sealed_data;
      await upsert('org-t', { namespace: 'versions', type: 'api_token_identity', data: { token: 'version-two-token' } });
      await db.query(`UPDATE vault.entries SET sealed_data = $2 WHERE id = $1`, [v1.result.id, oldSealed]);
      expect(await call('open', { org_id: 'org-t', actor: 'w', namespace: 'versions', type: 'api_token_identity' })).toMatchObject({
        ok: false,
        error: { code: 'unreadable' },
      });
    });

    it('into another organization, with or without its data key', async () => {
      const src = await upsert('org-x', { namespace: 'batch', type: 'api_token_identity', data: { token: 'org-x-secret-token' } });
      const dst = await upsert('org-y', { namespace: 'batch', type: 'api_token_identity', data: { token: 'org-y-secret-token' } });
      if (!src.ok || !dst.ok) throw new Error('upsert failed');
      await db.query(`UPDATE vault.entries SET sealed_data = (SELECT sealed_data FROM vault.entries WHERE id = $1) WHERE id = $2`, [
        src.result.id,
        dst.result.id,
      ]);
      const moved = await call('open', { org_id: 'org-y', actor: 'w', namespace: 'batch', type: 'api_token_identity' });
      expect(moved).toMatchObject({ ok: false, error: { code: 'unreadable' } });
      // Even with org-x's wrapped data key copied over too, the wrap is bound to org-x.
      await db.query(`UPDATE vault.data_keys SET wrapped_key = (SELECT wrapped_key FROM vault.data_keys WHERE org_id = 'org-x') WHERE org_id = 'org-y'`);
      const withKey = await call('open', { org_id: 'org-y', actor: 'w', namespace: 'batch', type: 'api_token_identity' });
      expect(withKey).toMatchObject({ ok: false, error: { code: 'unreadable' } });
      expect(JSON.stringify([moved, withKey])).not.toContain('org-x-secret-token');
      expect(await call('open', { org_id: 'org-x', actor: 'w', namespace: 'batch', type: 'api_token_identity' })).toMatchObject({
        ok: true,
        result: { data: { token: 'org-x-secret-token' } },
      });
    });
  });

  it('publishes audit events with metadata only to VAULT_AUDIT', async () => {
    const jsm = await jetstreamManager(nc);
    const stream = platformStreams(infra.bus).vaultAudit.name;
    const pending = async () => (await db.query(`SELECT count(*)::int AS n FROM vault.audit_outbox WHERE published_at IS NULL`)).rows[0].n;
    await eventually(async () => (await pending()) === 0, 10_000, 'outbox relayed');
    const outbox = (await db.query(`SELECT count(*)::int AS n FROM vault.audit_outbox`)).rows[0].n;
    const info = await jsm.streams.info(stream);
    expect(info.state.messages).toBe(outbox);
    const events = await readStream(jsm, stream, info.state.first_seq, info.state.last_seq);
    const types = new Set(events.map((e) => vaultAuditEvent.parse(e.data).type));
    expect([...types].sort()).toEqual(['data_key.created', 'entry.created', 'entry.deleted', 'entry.opened', 'entry.updated']);
    expect(events.every((e) => e.subject.startsWith(`${infra.busPrefix}.vault.audit.`))).toBe(true);
    expect(events.every((e) => Object.keys(e.data as object).every((k) => !['data', 'fields', 'sealed_data'].includes(k)))).toBe(true);
  });

  it('republishes committed events a crash left unmarked, and the stream keeps each event once', async () => {
    const jsm = await jetstreamManager(nc);
    const stream = platformStreams(infra.bus).vaultAudit.name;
    const relayed = async () => (await db.query(`SELECT count(*)::int AS n FROM vault.audit_outbox WHERE published_at IS NULL`)).rows[0].n === 0;
    await eventually(relayed, 10_000, 'outbox relayed');
    const before = (await jsm.streams.info(stream)).state.messages;
    // As if the process died between publishing and marking the rows.
    await db.query(`UPDATE vault.audit_outbox SET published_at = NULL WHERE seq IN (SELECT seq FROM vault.audit_outbox ORDER BY seq DESC LIMIT 5)`);
    await eventually(relayed, 10_000, 'outbox relayed again');
    expect((await jsm.streams.info(stream)).state.messages).toBe(before);
    const ready = (await (await fetch(`http://127.0.0.1:${port}/readyz`)).json()) as { checks: Record<string, unknown> };
    expect(ready.checks['vault-audit']).toEqual({ status: 'up', required: false });
  });

  it('holds no plaintext in a database dump, the JetStream store or the process log', async () => {
    await eventually(async () => (await db.query(`SELECT 1 FROM vault.audit_outbox WHERE published_at IS NULL`)).rowCount === 0, 10_000, 'outbox relayed');
    const dump = await dumpDatabase(infra.databaseUrl);
    // The dump really holds the vault's rows: every entry id and sealed value is in it.
    const stored = (await db.query(`SELECT id, sealed_data FROM vault.entries`)).rows as { id: string; sealed_data: string }[];
    expect(stored.length).toBeGreaterThan(5);
    for (const row of stored) expect(dump).toContain(row.sealed_data);
    const jsm = await jetstreamManager(nc);
    const stream = platformStreams(infra.bus).vaultAudit.name;
    const info = await jsm.streams.info(stream);
    const streamText = (await readStream(jsm, stream, info.state.first_seq, info.state.last_seq)).map((e) => e.raw).join('\n');
    const log = vault.log();
    // One per secret field of the four types: access and secret key, client secret, account key, private key, token.
    expect(allNeedles.length).toBeGreaterThanOrEqual(6);
    for (const needle of [...allNeedles, 'org-x-secret-token', 'second-token-value', 'tamper-one-token']) {
      expect(dump, 'database dump').not.toContain(needle);
      expect(streamText, 'VAULT_AUDIT').not.toContain(needle);
      expect(log, 'vault log').not.toContain(needle);
    }
  });

  async function readStream(jsm: Awaited<ReturnType<typeof jetstreamManager>>, stream: string, first: number, last: number) {
    const events: { subject: string; data: unknown; raw: string }[] = [];
    for (let seq = first; seq <= last && seq > 0; seq += 1) {
      const message = await jsm.streams.getMessage(stream, { seq });
      if (!message) continue;
      events.push({ subject: message.subject, data: message.json(), raw: `${message.subject} ${message.string()}` });
    }
    return events;
  }
});

/** pg_dump of the data; where pg_dump is missing or of another major version, every row of every table as JSON. */
async function dumpDatabase(databaseUrl: string): Promise<string> {
  try {
    const { stdout } = await run('pg_dump', ['--no-owner', '--data-only', databaseUrl], { maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const tables = await client.query(
        `SELECT table_schema, table_name FROM information_schema.tables
         WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`,
      );
      const parts: string[] = [];
      for (const { table_schema, table_name } of tables.rows) {
        const rows = await client.query(`SELECT row_to_json(t)::text AS row FROM "${table_schema}"."${table_name}" t`);
        parts.push(`-- ${table_schema}.${table_name}`, ...rows.rows.map((r) => r.row as string));
      }
      return parts.join('\n');
    } finally {
      await client.end();
    }
  }
}

/** A valid value of exactly `length` characters for the field (URLs and JSON stay well formed). */
function ofLength(name: string, length: number): string {
  const url = 'https://h.example/';
  if (name === 'end_point' || name === 'connection_string') return url + 'p'.repeat(length - url.length);
  if (name === 'credentials_json') return `{"k":"${'v'.repeat(length - 8)}"}`;
  return 'x'.repeat(length);
}
