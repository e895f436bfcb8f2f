import { createHash } from 'node:crypto';
import { jetstream, type JetStreamClient } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/nats-core';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataSource } from 'typeorm';
import { addDays, localDateOf } from '@meter/consumption';
import { EXPORT_COLUMNS } from '@meter/contracts';
import { connectNats } from '@meter/messaging';
import { eventually, isolatedInfra, readParquetWithDuckDb, startReadyApp, type IsolatedInfra, type PlatformProcess } from '@meter/testing';
import { authDataSource, call, login, newOrg, startAuth, streamMessages } from './auth-support';
import { startAzurite, startGcsDouble, startS3, type AzureEmulator, type GcsDouble, type S3Emulator } from './export-emulators';
import { signedRequest, testKeyRing } from './gateway-support';
import { ringEntry, vaultRequest } from './vault-fixtures';

/**
 * Batch exports end to end: readings through NATS and ingest into the read
 * model; integrations activated and runs queued through the management API
 * (auth -> NATS -> integrations), the storage identity opened from the vault;
 * files written to s3rver, Azurite and a Cloud Storage double, and compared
 * with the gateway's history route in each zone.
 */
type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any
type Row = Record<(typeof EXPORT_COLUMNS)[number], string | null>;

const H = 3600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const at = (text: string) => Date.parse(text);
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const MARCH_DAYS = ['2026-03-27', '2026-03-28', '2026-03-29', '2026-03-30', '2026-03-31', '2026-04-01'];
const TODAY = localDateOf(Date.now(), 'UTC');
const RECENT = addDays(TODAY, -2);

describe('batch exports to S3, Azure and GCS', () => {
  let infra: IsolatedInfra;
  let db: DataSource;
  let nc: NatsConnection;
  let js: JetStreamClient;
  let s3: S3Emulator;
  let azure: AzureEmulator;
  let gcs: GcsDouble;
  let env: Record<string, string>;
  const processes: PlatformProcess[] = [];
  let integrations: PlatformProcess;
  let authBase: string;
  let gatewayPort: number;
  const org: Record<'a' | 'b', { id: string; token: string; credential: { accessKey: string; secretKey: string } }> = {} as never;
  let azureSas: string;

  const api = async (who: 'a' | 'b', method: string, path: string, body?: unknown) => call(authBase, method, path, { token: org[who].token, body });
  const ok = async (who: 'a' | 'b', method: string, path: string, body?: unknown, status = 200) => {
    const response = await api(who, method, path, body);
    if (response.status !== status) throw new Error(`${method} ${path} -> ${response.status} ${JSON.stringify(response.body)}`);
    return response.body as Json;
  };
  const publish = (orgId: string, kind: 'readings' | 'devices' | 'alarms', deviceId: number, payload: unknown) =>
    js.publish(infra.bus.subject(`meter.${kind}.${orgId}.${deviceId}`), JSON.stringify(payload));
  const hourly = (from: string, to: string, start: number, step: (i: number) => number, channel = 1) => {
    const readings = [];
    let value = start;
    for (let t = at(from), i = 0; t <= at(to); t += H, i++) {
      readings.push({ read_at: iso(t), value: Number(value.toFixed(3)), channel });
      value += step(i);
    }
    return readings;
  };
  const vaultEntry = (who: 'a' | 'b', namespace: string, type: string, data: Record<string, string>) =>
    ok(who, 'PATCH', '/organization-vault', { namespace, type, data });
  const s3Identity = (accessKey = s3.accessKey) => ({ access_key: accessKey, secret_key: s3.secretKey, end_point: s3.endpoint, region: 'us-east-1' });
  const azureIdentity = (connection: string) => ({ tenant_id: 'tenant', client_id: 'client', client_secret: 'unused', connection_string: connection });

  /** Waits for a run to finish and returns it. */
  const finished = (who: 'a' | 'b', integrationId: string, runId: string, timeoutMs = 60_000) =>
    eventually(
      async () => {
        const run = await ok(who, 'GET', `/integrations/${integrationId}/runs/${runId}`);
        return run.status === 'succeeded' || run.status === 'failed' ? (run as Json) : false;
      },
      timeoutMs,
      `run ${runId} finished`,
    );
  const runRange = async (who: 'a' | 'b', integrationId: string, from: string, to: string) => {
    const queued = await ok(who, 'POST', `/integrations/${integrationId}/runs`, { from, to }, 202);
    expect(queued).toMatchObject({ status: 'queued', from, to });
    return finished(who, integrationId, queued.id as string);
  };

  /** The history route's days for a device in a zone: `${device}:${channel}:${date}` -> value and alert codes. */
  const historyDays = async (who: 'a' | 'b', deviceId: number, zone: string) => {
    const days = new Map<string, { value: string; alerts: string | null }>();
    for (const period of ['2026-03', '2026-04']) {
      const response = await signedRequest(gatewayPort, org[who].credential, {
        target: `/meter/v1/history?device_id=${deviceId}&period=${period}`,
        headers: { 'x-timezone': zone },
      });
      if (response.status !== 200) throw new Error(`history ${deviceId} -> ${response.status} ${response.text}`);
      (response.json().series as Json[]).forEach((series, index) => {
        for (const point of series.data_points as Json[]) {
          const codes = (point.alerts as { code: string }[]).map((a) => a.code).join('|');
          days.set(`${deviceId}:${index + 1}:${String(point.date).slice(0, 10)}`, { value: point.value, alerts: codes || null });
        }
      });
    }
    return days;
  };

  const csvRows = (bytes: Buffer): Row[] =>
    (parse(bytes, { columns: true, skip_empty_lines: true }) as Record<string, string>[]).map(
      (r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === '' ? null : v])) as Row,
    );
  const ndjsonRows = (bytes: Buffer): Row[] =>
    bytes
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const r = JSON.parse(line) as Record<string, unknown>;
        return Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? null : String(v)])) as Row;
      });
  // As DuckDB reads the file: typed columns, each value as DuckDB writes it as text.
  const parquetRows = async (bytes: Buffer): Promise<Row[]> => (await readParquetWithDuckDb(bytes)).rows as Row[];
  /** A decimal at `places` places, as a DECIMAL column of that scale holds it ("0" at 3 is "0.000"). */
  const atScale = (text: string, places: number) => {
    const [whole, fraction = ''] = text.split('.');
    return places === 0 ? whole : `${whole}.${fraction.padEnd(places, '0')}`;
  };

  /** Every day of a run: data file and manifest agree, and each row agrees with the history route. */
  const checkDays = async (
    read: (key: string) => Promise<Buffer | undefined>,
    options: { who: 'a' | 'b'; integrationId: string; prefix: string; format: 'csv' | 'ndjson' | 'parquet'; zone: string; run: Json; devices: number[] },
  ) => {
    const history = new Map<string, { value: string; alerts: string | null }>();
    for (const device of options.devices) for (const [k, v] of await historyDays(options.who, device, options.zone)) history.set(k, v);
    const byDate = new Map<string, Row[]>();
    for (const date of MARCH_DAYS) {
      const data = (await read(`${options.prefix}dt=${date}/consumption.${options.format}`))!;
      const manifest = JSON.parse((await read(`${options.prefix}dt=${date}/_manifest.json`))!.toString()) as Json;
      const rows = options.format === 'csv' ? csvRows(data) : options.format === 'ndjson' ? ndjsonRows(data) : await parquetRows(data);
      expect(manifest).toMatchObject({
        integration_id: options.integrationId,
        org_id: org[options.who].id,
        date,
        time_zone: options.zone,
        format: options.format,
        rows: rows.length,
        sha256: sha256(data),
        columns: [...EXPORT_COLUMNS],
      });
      expect(options.run.files).toContainEqual({
        key: `${options.prefix}dt=${date}/consumption.${options.format}`,
        rows: rows.length,
        bytes: data.length,
        sha256: sha256(data),
      });
      const order = rows.map((r) => [Number(r.device_id), Number(r.channel)]);
      expect(order).toEqual([...order].sort((x, y) => x[0] - y[0] || x[1] - y[1]));
      for (const row of rows) {
        expect(row.date).toBe(date);
        const expected = history.get(`${row.device_id}:${row.channel}:${date}`);
        expect(expected, `history of ${row.device_id}:${row.channel}:${date}`).toBeDefined();
        // Parquet's DECIMAL column has the file's scale: the device's decimal places here (one device).
        const value = options.format === 'parquet' ? atScale(expected!.value, row.consumption!.split('.')[1]?.length ?? 0) : expected!.value;
        expect({ consumption: row.consumption, alerts: row.alerts }).toEqual({ consumption: value, alerts: expected!.alerts });
      }
      byDate.set(date, rows);
    }
    return byDate;
  };

  beforeAll(async () => {
    infra = await isolatedInfra();
    [s3, azure, gcs] = await Promise.all([startS3(), startAzurite(), startGcsDouble()]);
    const keys = await testKeyRing();
    env = infra.env({
      CREDENTIAL_KEYRING: keys.env,
      VAULT_ROOT_KEYRING: ringEntry('k1'),
      DATA_DIR: `.data/test-${infra.busPrefix}`,
      RATE_LIMIT_PER_MINUTE: '100000',
      EXPORT_RETRY_DELAY_SECONDS: '1',
      // A day's whole limit far beyond this file's waits: a killed worker's day comes back by its lease alone.
      EXPORT_DAY_TIMEOUT_SECONDS: '1800',
      EXPORT_DAY_LEASE_SECONDS: '10',
      EXPORT_POLL_SECONDS: '0.5',
      EXPORT_SCHEDULE_TICK_SECONDS: '1',
      GCS_API_ENDPOINT: gcs.apiEndpoint,
    });
    const started = await Promise.all([
      startReadyApp('vault', env),
      startReadyApp('ingest', env),
      startReadyApp('gateway', env),
      startReadyApp('integrations', env),
      startAuth(infra, env),
    ]);
    processes.push(...started.map((s) => s.process));
    integrations = started[3].process;
    gatewayPort = started[2].port;
    authBase = started[4].base;
    db = await authDataSource({ DATABASE_URL: infra.databaseUrl }, 'export-test');
    nc = await connectNats(infra.natsUrl, 'export-test');
    js = jetstream(nc);

    for (const who of ['a', 'b'] as const) {
      const created = await newOrg(db, { fastHash: true });
      const token = await login(authBase, created.email, created.password);
      const credential = await call(authBase, 'POST', '/org-api-credentials', {
        token,
        body: { name: 'export test', type: 'secret', scopes: ['meter:consumption:read'] },
      });
      org[who] = { id: created.orgId, token, credential: { accessKey: credential.body.access_key, secretKey: credential.body.secret_key } };
    }
    const A = org.a.id;
    const B = org.b.id;

    // Org A, around the Madrid DST change (2026-03-29): hourly meters, a gap, a reset, a quiet meter, a late activation.
    await publish(A, 'devices', 1, { name: 'Two channels', channels: 2 });
    const readings: [string, number, unknown[]][] = [
      [A, 1, hourly('2026-03-26T00:00:00Z', '2026-04-02T00:00:00Z', 1000, (i) => 0.25 + (i % 5) * 0.01)],
      [A, 1, hourly('2026-03-26T00:00:00Z', '2026-04-02T00:00:00Z', 50, () => 0.1, 2).filter((_, i) => i % 6 === 0)],
      [A, 2, [{ read_at: '2026-03-26T00:00:00Z', value: 100 }, ...hourly('2026-03-30T12:00:00Z', '2026-04-02T00:00:00Z', 112, () => 0.1)]],
      [
        A,
        3,
        hourly('2026-03-26T00:00:00Z', '2026-04-02T00:00:00Z', 500, () => 0.2).map((r, i) =>
          i >= 58 ? { ...r, value: Number((0.5 + (i - 58) * 0.2).toFixed(3)) } : r,
        ),
      ],
      [A, 4, hourly('2026-03-26T00:00:00Z', '2026-03-26T12:00:00Z', 10, () => 0.3)],
      [A, 5, hourly('2026-03-31T00:00:00Z', '2026-04-02T00:00:00Z', 7, () => 0.4)],
      [A, 6, hourly(`${addDays(TODAY, -3)}T00:00:00Z`, `${addDays(TODAY, -1)}T12:00:00Z`, 20, () => 0.25)],
      // Org B has a device 1 of its own, with other values.
      [B, 1, hourly('2026-03-26T00:00:00Z', '2026-04-02T00:00:00Z', 3, () => 0.05)],
    ];
    await publish(A, 'devices', 4, { name: 'Quiet', activated_at: '2026-03-26T00:00:00Z' });
    // With more decimal places than the others: a Parquet file with it has that scale.
    await publish(A, 'devices', 5, { name: 'Late', activated_at: '2026-03-31T00:00:00Z', decimal_places: 4 });
    let total = 0;
    for (const [orgId, device, list] of readings) {
      for (let i = 0; i < list.length; i += 200) await publish(orgId, 'readings', device, list.slice(i, i + 200));
      total += list.length;
    }
    await eventually(async () => Number((await db.query('SELECT count(*) AS n FROM ingest.readings'))[0].n) === total, 60_000, 'readings stored');
    // A device alarm raised on the 30th: its code is among that day's alerts, in the file as in the history route.
    await publish(A, 'alarms', 3, { code: 'TAMPER', state: 'raised', at: '2026-03-30T10:00:00Z', channel: 1 });
    await eventually(
      async () => Number((await db.query(`SELECT count(*) AS n FROM ingest.alert_episodes WHERE code = 'TAMPER'`))[0].n) === 1,
      30_000,
      'the alarm stored',
    );

    await Promise.all([s3.createBucket('meter-a'), s3.createBucket('meter-b'), s3.createBucket('meter-a-gone'), azure.createContainer('meter-a-az')]);
    gcs.buckets.set('meter-a-gcs', new Map());
    azureSas = await azure.containerSasUrl('meter-a-az', 'racwdl');
    await vaultEntry('a', 'batch', 's3_identity', s3Identity());
    await vaultEntry('a', 'batch', 'azure_identity', azureIdentity(azureSas));
    await vaultEntry('a', 'batch', 'gcs_identity', { credentials_json: gcs.credentialsJson, project_id: 'meter-test' });
    await vaultEntry('b', 'batch', 's3_identity', s3Identity());
  }, 180_000);

  afterAll(async () => {
    await nc?.close();
    await db?.destroy();
    await Promise.all(processes.map((p) => p.stop()));
    await Promise.all([s3?.stop(), azure?.stop(), gcs?.stop()]);
    await infra?.cleanup();
  });

  const integrationIds: Record<string, string> = {};
  const marchFiles = new Map<string, Map<string, Row[]>>();

  it('activates exports after a check write and answers them in the organization only', async () => {
    const created = await ok(
      'a',
      'POST',
      '/integrations',
      { type: 'batch_export', namespace: 'batch', storage_type: 's3_identity', destination: { bucket: 'meter-a', prefix: 'fleet/' } },
      201,
    );
    expect(created).toMatchObject({
      type: 'batch_export',
      namespace: 'batch',
      storage_type: 's3_identity',
      destination: { bucket: 'meter-a', prefix: 'fleet/' },
      format: 'csv',
      time_zone: 'UTC',
      schedule: { at: '02:00' },
      status: 'active',
      last_run: null,
    });
    integrationIds.s3 = created.id;
    // The check object was deleted again.
    expect(await s3.keys('meter-a')).toEqual([]);
    integrationIds.azure = (
      await ok(
        'a',
        'POST',
        '/integrations',
        {
          type: 'batch_export',
          namespace: 'batch',
          storage_type: 'azure_identity',
          destination: { bucket: 'meter-a-az' },
          format: 'ndjson',
          time_zone: 'Europe/Madrid',
          schedule: { at: '03:30' },
        },
        201,
      )
    ).id;
    integrationIds.gcs = (
      await ok(
        'a',
        'POST',
        '/integrations',
        { type: 'batch_export', namespace: 'batch', storage_type: 'gcs_identity', destination: { bucket: 'meter-a-gcs', prefix: 'g/' } },
        201,
      )
    ).id;
    integrationIds.b = (
      await ok(
        'b',
        'POST',
        '/integrations',
        {
          type: 'batch_export',
          namespace: 'batch',
          storage_type: 's3_identity',
          destination: { bucket: 'meter-b', prefix: 'b/' },
          format: 'parquet',
          time_zone: 'Asia/Kolkata',
        },
        201,
      )
    ).id;

    expect((await ok('a', 'GET', '/integrations')).integrations.map((i: Json) => i.id)).toEqual([integrationIds.s3, integrationIds.azure, integrationIds.gcs]);
    expect((await ok('b', 'GET', '/integrations')).integrations.map((i: Json) => i.id)).toEqual([integrationIds.b]);
    expect((await api('b', 'GET', `/integrations/${integrationIds.s3}`)).status).toBe(404);
    expect((await api('b', 'POST', `/integrations/${integrationIds.s3}/runs`, {})).status).toBe(404);
    expect((await api('b', 'DELETE', `/integrations/${integrationIds.s3}`)).status).toBe(404);
    expect((await api('a', 'GET', '/integrations/not-an-id')).status).toBe(404);
  });

  it('refuses bad settings and destinations that do not take writes, naming why', async () => {
    const body = { type: 'batch_export', namespace: 'batch', storage_type: 's3_identity', destination: { bucket: 'meter-a' } };
    const invalid = await api('a', 'POST', '/integrations', {
      ...body,
      format: 'xml',
      destination: { bucket: 'meter-a', prefix: 'no-slash' },
      schedule: { at: '25:00' },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors.map((e: Json) => e.field).sort()).toEqual(['destination.prefix', 'format', 'schedule.at']);
    const missingEntry = await api('b', 'POST', '/integrations', { ...body, storage_type: 'azure_identity' });
    expect(missingEntry.status).toBe(400);
    expect(missingEntry.body.errors).toEqual([{ field: 'storage_type', message: 'the vault has no azure_identity entry in namespace batch' }]);
    const noBucket = await api('a', 'POST', '/integrations', { ...body, destination: { bucket: 'no-such-bucket' } });
    expect(noBucket.status).toBe(422);
    expect(noBucket.body).toMatchObject({ code: 'destination_check_failed' });
    expect(noBucket.body.detail).toContain('NoSuchBucket');
    await vaultEntry('a', 'badkeys', 's3_identity', s3Identity('NOT-A-KEY-OF-THIS-SERVER'));
    const denied = await api('a', 'POST', '/integrations', { ...body, namespace: 'badkeys' });
    expect(denied.status).toBe(422);
    expect(denied.body.detail).toContain('InvalidAccessKeyId');
    expect(denied.body.detail).toContain('access_denied');
    const runs = await api('a', 'POST', `/integrations/${integrationIds.s3}/runs`, { from: '2026-03-05', to: addDays(TODAY, 1) });
    expect(runs.status).toBe(400);
    expect(runs.body.errors[0].field).toBe('to');
  });

  it('exports exactly the history route in UTC (CSV to S3) and in Madrid across its DST change (NDJSON to Azure)', async () => {
    const [s3Run, azureRun] = await Promise.all([
      runRange('a', integrationIds.s3, MARCH_DAYS[0], MARCH_DAYS[5]),
      runRange('a', integrationIds.azure, MARCH_DAYS[0], MARCH_DAYS[5]),
    ]);
    expect(s3Run).toMatchObject({ status: 'succeeded', trigger: 'manual', error: null });
    expect(azureRun).toMatchObject({ status: 'succeeded', error: null });
    expect(s3Run.files).toHaveLength(6);
    const devices = [1, 2, 3, 4, 5];
    const utc = await checkDays((key) => s3.get('meter-a', key), {
      who: 'a',
      integrationId: integrationIds.s3,
      prefix: 'fleet/',
      format: 'csv',
      zone: 'UTC',
      run: s3Run,
      devices,
    });
    const madrid = await checkDays((name) => azure.get('meter-a-az', name), {
      who: 'a',
      integrationId: integrationIds.azure,
      prefix: '',
      format: 'ndjson',
      zone: 'Europe/Madrid',
      run: azureRun,
      devices,
    });
    marchFiles.set('utc', utc);

    const row = (rows: Row[], device: number, channel = 1) => rows.find((r) => Number(r.device_id) === device && Number(r.channel) === channel);
    // Device 1: registers are the readings at midnight; one day's end is the next day's start.
    expect(row(utc.get('2026-03-28')!, 1)).toMatchObject({ unit: 'm³', quality: 'ACTUAL', alerts: null });
    expect(row(utc.get('2026-03-28')!, 1)!.register_end).toBe(row(utc.get('2026-03-29')!, 1)!.register_start);
    // The Madrid day of the change has 23 hours: less than its UTC neighbour's 24.
    expect(Number(row(madrid.get('2026-03-29')!, 1)!.consumption)).toBeLessThan(Number(row(madrid.get('2026-03-30')!, 1)!.consumption));
    // Device 2: the days inside its 4.5-day gap are spread (ESTIMATED) and carry no alert.
    expect(row(utc.get('2026-03-28')!, 2)).toMatchObject({ quality: 'ESTIMATED', alerts: null });
    expect(row(utc.get('2026-04-01')!, 2)).toMatchObject({ quality: 'ACTUAL' });
    // Device 3: the reset.
    expect(row(utc.get('2026-03-28')!, 3)).toMatchObject({ alerts: 'REGISTER_RESET' });
    expect(row(utc.get('2026-03-30')!, 3)!.alerts?.split('|')).toContain('TAMPER');
    // Device 4: readings stop on the 26th; later days have no data and no registers.
    expect(row(utc.get('2026-03-28')!, 4)).toEqual({
      device_id: '4',
      channel: '1',
      date: '2026-03-28',
      consumption: '0',
      unit: 'm³',
      register_start: null,
      register_end: null,
      alerts: 'NO_DATA',
      quality: 'MISSING',
    });
    // Device 5 is activated on the 31st (UTC): no row before, one from then on; in Madrid the 31st starts at 22:00Z on the 30th.
    expect(row(utc.get('2026-03-30')!, 5)).toBeUndefined();
    expect(row(utc.get('2026-03-31')!, 5)).toBeDefined();
    expect(row(madrid.get('2026-03-30')!, 5)).toBeUndefined();
    expect(utc.get('2026-03-27')!.map((r) => `${r.device_id}:${r.channel}`)).toEqual(['1:1', '1:2', '2:1', '3:1', '4:1']);
  });

  it('writes the same bytes to GCS (through a double of its API) and again on a re-run', async () => {
    const run = await runRange('a', integrationIds.gcs, '2026-03-28', '2026-03-29');
    expect(run.status).toBe('succeeded');
    const object = gcs.buckets.get('meter-a-gcs')!.get('g/dt=2026-03-28/consumption.csv')!;
    const first = (await s3.get('meter-a', 'fleet/dt=2026-03-28/consumption.csv'))!;
    expect(object.body.equals(first)).toBe(true);
    expect(object.contentType).toContain('text/csv');
    expect(JSON.parse(gcs.buckets.get('meter-a-gcs')!.get('g/dt=2026-03-28/_manifest.json')!.body.toString()).sha256).toBe(sha256(first));
    expect(gcs.requests.length).toBeGreaterThan(0);
    expect(gcs.requests.every((r) => r.authorized)).toBe(true);

    const again = await runRange('a', integrationIds.s3, '2026-03-28', '2026-03-28');
    expect(again.status).toBe('succeeded');
    expect(again.files).toEqual([{ key: 'fleet/dt=2026-03-28/consumption.csv', rows: csvRows(first).length, bytes: first.length, sha256: sha256(first) }]);
    expect((await s3.get('meter-a', 'fleet/dt=2026-03-28/consumption.csv'))!.equals(first)).toBe(true);
  });

  it("keeps organizations apart: org B's Parquet file holds its own device 1 only", async () => {
    const run = await runRange('b', integrationIds.b, MARCH_DAYS[0], MARCH_DAYS[5]);
    expect(run.status).toBe('succeeded');
    const files = await checkDays((key) => s3.get('meter-b', key), {
      who: 'b',
      integrationId: integrationIds.b,
      prefix: 'b/',
      format: 'parquet',
      zone: 'Asia/Kolkata',
      run,
      devices: [1],
    });
    expect([...files.values()].flat().map((r) => `${r.device_id}:${r.channel}`)).toEqual(MARCH_DAYS.map(() => '1:1'));
    expect((await ok('b', 'GET', `/integrations/${integrationIds.b}/runs`)).runs.map((r: Json) => r.id)).toEqual([run.id]);
  });

  it('queues one run for a POST repeated with the same Idempotency-Key, and refuses that key for other days', async () => {
    const post = (from: string) =>
      call(authBase, 'POST', `/integrations/${integrationIds.b}/runs`, {
        token: org.b.token,
        body: { from, to: from },
        headers: { 'idempotency-key': 'runs-retried-after-a-timeout' },
      });
    const before = (await ok('b', 'GET', `/integrations/${integrationIds.b}/runs`)).runs as Json[];
    const answers = await Promise.all([post(MARCH_DAYS[1]), post(MARCH_DAYS[1])]);
    expect(answers.map((a) => a.status)).toEqual([202, 202]);
    expect(answers[0].body.id).toBe(answers[1].body.id);
    expect(answers.filter((a) => a.headers.get('idempotent-replayed') === 'true')).toHaveLength(1);
    const other = await post(MARCH_DAYS[2]);
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ code: 'idempotency_key_reused' });
    await finished('b', integrationIds.b, answers[0].body.id as string);
    const after = (await ok('b', 'GET', `/integrations/${integrationIds.b}/runs`)).runs as Json[];
    expect(after.map((r) => r.id).sort()).toEqual([...before.map((r) => r.id), answers[0].body.id].sort());
  });

  it("types Parquet columns as DuckDB reads them: DATE, DECIMAL(18, the file's largest decimal places), exact values", async () => {
    const created = await ok(
      'a',
      'POST',
      '/integrations',
      { type: 'batch_export', namespace: 'batch', storage_type: 's3_identity', destination: { bucket: 'meter-a', prefix: 'typed/' }, format: 'parquet' },
      201,
    );
    try {
      // The 30th has devices 1-4 (3 places); the 31st also device 5 (4 places).
      const run = await runRange('a', created.id, '2026-03-30', '2026-03-31');
      expect(run.status).toBe('succeeded');
      const csv = marchFiles.get('utc')!;
      for (const [date, places] of [
        ['2026-03-30', 3],
        ['2026-03-31', 4],
      ] as const) {
        const file = await readParquetWithDuckDb((await s3.get('meter-a', `typed/dt=${date}/consumption.parquet`))!);
        const decimal = `DECIMAL(18,${places})`;
        expect(file.types).toEqual({
          device_id: 'BIGINT',
          channel: 'INTEGER',
          date: 'DATE',
          consumption: decimal,
          unit: 'VARCHAR',
          register_start: decimal,
          register_end: decimal,
          alerts: 'VARCHAR',
          quality: 'VARCHAR',
        });
        // The same rows as the UTC CSV file of that day (checked against the history route), each decimal at the file's scale.
        const scaled = (text: string | null) => (text === null ? null : atScale(text, places));
        const expected = csv
          .get(date)!
          .map((r) => ({ ...r, consumption: scaled(r.consumption), register_start: scaled(r.register_start), register_end: scaled(r.register_end) }));
        expect(file.rows).toEqual(expected);
      }
    } finally {
      await ok('a', 'DELETE', `/integrations/${created.id}`, undefined, 204);
    }
  });

  it('restates a day that received a correction after its export at the next scheduled run', async () => {
    const first = await runRange('a', integrationIds.s3, RECENT, RECENT);
    expect(first.status).toBe('succeeded');
    const before = (await s3.get('meter-a', `fleet/dt=${RECENT}/consumption.csv`))!;
    const corrected = `${RECENT}T10:00:00.000Z`;
    await publish(org.a.id, 'readings', 6, { read_at: corrected, value: 999 });
    await eventually(
      async () =>
        Number((await db.query('SELECT value FROM ingest.readings WHERE org_id = $1 AND device_id = 6 AND read_at = $2', [org.a.id, corrected]))[0]?.value) ===
        999,
      20_000,
      'correction stored',
    );
    // The schedule's time comes (as at 02:00): the next tick queues yesterday and restates the corrected day.
    await db.query(`UPDATE integrations.export_integrations SET next_run_at = now() WHERE id = $1`, [integrationIds.s3]);
    const restatement = await eventually(
      async () => ((await ok('a', 'GET', `/integrations/${integrationIds.s3}/runs`)).runs as Json[]).find((r) => r.trigger === 'restatement') ?? false,
      30_000,
      'restatement queued',
    );
    expect(restatement).toMatchObject({ from: RECENT, to: RECENT });
    expect(await finished('a', integrationIds.s3, restatement.id)).toMatchObject({ status: 'succeeded' });
    const scheduled = ((await ok('a', 'GET', `/integrations/${integrationIds.s3}/runs`)).runs as Json[]).find((r) => r.trigger === 'schedule');
    expect(scheduled).toMatchObject({ from: addDays(TODAY, -1), to: addDays(TODAY, -1) });
    const after = (await s3.get('meter-a', `fleet/dt=${RECENT}/consumption.csv`))!;
    expect(after.equals(before)).toBe(false);
    const history = await signedRequest(gatewayPort, org.a.credential, { target: `/meter/v1/history?device_id=6&period=7D`, headers: { 'x-timezone': 'UTC' } });
    const point = (history.json().series as Json[])[0].data_points.find((p: Json) => p.date.startsWith(RECENT));
    expect(csvRows(after).find((r) => r.device_id === '6')!.consumption).toBe(point.value);
    // Nothing changed since: the next scheduled time restates nothing.
    await db.query(`UPDATE integrations.export_integrations SET next_run_at = now() WHERE id = $1`, [integrationIds.s3]);
    await eventually(
      async () => (await db.query(`SELECT next_run_at > now() AS later FROM integrations.export_integrations WHERE id = $1`, [integrationIds.s3]))[0].later,
      10_000,
      'schedule advanced',
    );
    expect(((await ok('a', 'GET', `/integrations/${integrationIds.s3}/runs`)).runs as Json[]).filter((r) => r.trigger === 'restatement')).toHaveLength(1);
  });

  it('fails runs with the destination refusing or the bucket gone after 3 attempts, the vault entry deleted at once, and says so in events', async () => {
    const body = { type: 'batch_export', storage_type: 's3_identity', destination: { bucket: 'meter-a' } };
    // Access refused: the Azure entry is replaced by a read-only signature after activation.
    await vaultEntry('a', 'readonly', 'azure_identity', azureIdentity(azureSas));
    const denied = (
      await ok('a', 'POST', '/integrations', { ...body, namespace: 'readonly', storage_type: 'azure_identity', destination: { bucket: 'meter-a-az' } }, 201)
    ).id;
    await vaultEntry('a', 'readonly', 'azure_identity', azureIdentity(await azure.containerSasUrl('meter-a-az', 'rl')));
    // The bucket is deleted after activation.
    const gone = (await ok('a', 'POST', '/integrations', { ...body, namespace: 'batch', destination: { bucket: 'meter-a-gone' } }, 201)).id;
    await s3.deleteBucket('meter-a-gone');
    // The management API refuses to delete the entry of an active integration, naming it.
    const entry = await vaultEntry('a', 'doomed', 's3_identity', s3Identity());
    const doomed = (await ok('a', 'POST', '/integrations', { ...body, namespace: 'doomed' }, 201)).id;
    const refused = await api('a', 'DELETE', `/organization-vault/${entry.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'vault_entry_in_use', integrations: [{ id: doomed }] });
    expect(refused.body.detail).toContain(doomed);
    // An entry no active integration opens is deleted as before.
    const spare = await vaultEntry('a', 'spare', 's3_identity', s3Identity());
    expect((await api('a', 'DELETE', `/organization-vault/${spare.id}`)).status).toBe(204);
    // Gone anyway (deleted on the vault's own interface): the run fails at its first attempt.
    expect(await vaultRequest(nc, infra.bus, 'delete', { org_id: org.a.id, actor: 'export-test', entry_id: entry.id })).toMatchObject({ ok: true });

    const runs = await Promise.all([denied, gone, doomed].map((id) => runRange('a', id, '2026-03-28', '2026-03-28')));
    expect(runs.map((r) => [r.status, r.error?.code])).toEqual([
      ['failed', 'access_denied'],
      ['failed', 'bucket_not_found'],
      ['failed', 'vault_entry_missing'],
    ]);
    expect(runs[0].error.message).toContain('AuthorizationPermissionMismatch');
    expect(runs.every((r) => r.files.length === 0)).toBe(true);
    const attempts = await db.query(`SELECT run_id::text, attempts FROM integrations.export_run_days WHERE run_id = ANY($1::uuid[])`, [runs.map((r) => r.id)]);
    expect(attempts.map((a: Json) => [a.run_id, a.attempts])).toEqual(
      expect.arrayContaining([
        [runs[0].id, 3],
        [runs[1].id, 3],
        [runs[2].id, 1],
      ]),
    );

    const events = await eventually(
      async () => {
        const messages = await streamMessages(infra.natsUrl, infra.bus.stream('OUTBOUND_EVENTS'));
        return messages.filter((m) => m.subject.endsWith('export.failed')).length >= 3 ? messages : false;
      },
      20_000,
      'export events published',
    );
    const failed = events.filter((m) => m.subject === infra.bus.subject(`events.${org.a.id}.export.failed`)).map((m) => JSON.parse(m.data) as Json);
    expect(failed.map((e) => e.data.id).sort()).toEqual(runs.map((r) => r.id).sort());
    expect(failed[0]).toMatchObject({ type: 'export.failed', org_id: org.a.id });
    expect(events.some((m) => m.subject === infra.bus.subject(`events.${org.b.id}.export.succeeded`))).toBe(true);
    // No storage secret in a run, an event, a table of the integrations schema or the process log.
    const signature = new URL(azureSas).searchParams.get('sig')!;
    const tables = JSON.stringify(await db.query(`SELECT row_to_json(r)::text FROM integrations.export_runs r`)) + JSON.stringify(events);
    expect(tables).not.toContain(signature);
    expect(integrations.log()).not.toContain(signature);
    // Deleting an integration takes its runs along.
    expect((await api('a', 'DELETE', `/integrations/${doomed}`)).status).toBe(204);
    expect((await api('a', 'GET', `/integrations/${doomed}`)).status).toBe(404);
    expect((await api('a', 'GET', `/integrations/${doomed}/runs/${runs[2].id}`)).status).toBe(404);
  });

  it('finishes a run whole after integrations is killed (kill -9) in the middle of a day, by its lease, not the day timeout', async () => {
    const from = addDays(TODAY, -40);
    const to = addDays(TODAY, -1);
    const queued = await ok('a', 'POST', `/integrations/${integrationIds.s3}/runs`, { from, to }, 202);
    await eventually(
      async () => {
        const [{ done, running }] = await db.query(
          `SELECT count(*) FILTER (WHERE status = 'succeeded')::int AS done, count(*) FILTER (WHERE status = 'running')::int AS running
             FROM integrations.export_run_days WHERE run_id = $1`,
          [queued.id],
        );
        return done >= 3 && running >= 1;
      },
      60_000,
      'a few days exported, one under way',
    );
    integrations.signal('SIGKILL');
    await integrations.exited;
    const [{ done }] = await db.query(`SELECT count(*)::int AS done FROM integrations.export_run_days WHERE run_id = $1 AND status = 'succeeded'`, [queued.id]);
    expect(done).toBeLessThan(40);
    const restarted = await startReadyApp('integrations', env);
    processes.push(restarted.process);
    // EXPORT_DAY_TIMEOUT_SECONDS is 1800: finishing within this wait means the dead worker's lease ran out and its day was taken over.
    const run = await finished('a', integrationIds.s3, queued.id, 120_000);
    expect(run).toMatchObject({ status: 'succeeded', error: null });
    expect(run.files).toHaveLength(40);
    for (const file of run.files as Json[]) {
      const data = (await s3.get('meter-a', file.key))!;
      const manifest = JSON.parse((await s3.get('meter-a', file.key.replace(/consumption\.csv$/, '_manifest.json')))!.toString());
      expect({ file: sha256(data), manifest: manifest.sha256 }).toEqual({ file: file.sha256, manifest: file.sha256 });
    }
  }, 180_000);
});
