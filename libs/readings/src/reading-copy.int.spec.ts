import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'pg';
import { copyFrom } from '@meter/persistence';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import type { PlannedReading } from './reading-batch';
import { encodeReadingsCopy, READING_COPY_COLUMNS } from './reading-copy';

const at = (iso: string) => Date.parse(iso);
const row = (over: Partial<PlannedReading>): PlannedReading => ({
  orgId: 'org_a',
  deviceId: 42,
  channel: 1,
  readAt: at('2026-11-21T10:00:00Z'),
  value: 12.5,
  seq: 7,
  prevReadAt: null,
  delta: 0,
  reset: false,
  cum: 0,
  ...over,
});

/** Edge values of every column: far years with milliseconds, negative epochs, -0, the largest ids. */
const ROWS: PlannedReading[] = [
  row({}),
  row({ readAt: at('2026-11-21T10:00:00.123Z'), prevReadAt: at('2026-11-21T09:00:00.999Z'), value: 1e15 - 1, delta: 0.001, cum: 123456.789, reset: true }),
  row({ orgId: 'Org-B_2', deviceId: Number.MAX_SAFE_INTEGER, channel: 64, seq: Number.MAX_SAFE_INTEGER, value: -0, delta: -0, cum: -0 }),
  row({ orgId: 'x'.repeat(64), readAt: at('0000-01-01T00:00:00.999Z'), prevReadAt: at('0000-01-01T00:00:00.001Z'), value: 0.1 + 0.2 }),
  row({ readAt: at('1800-06-01T12:34:56.789Z'), prevReadAt: at('1843-01-01T00:00:00.555Z'), value: 5e-324, delta: 1 / 3, cum: 2 / 3 }),
  row({ readAt: at('9999-12-31T23:59:59.999Z'), prevReadAt: at('2096-02-29T23:59:59.501Z') }),
  row({ readAt: at('1969-12-31T23:59:59.999Z'), prevReadAt: at('1999-12-31T23:59:59.999Z') }),
  row({ readAt: at('2000-01-01T00:00:00.000Z'), prevReadAt: at('2000-01-01T00:00:00.001Z'), seq: 1, deviceId: 1 }),
  ...Array.from({ length: 30_000 }, (_, i) => row({ orgId: i % 3 ? 'org_a' : 'org_c', deviceId: 1000 + (i % 7), channel: 1 + (i % 64), readAt: at('2026-01-01T00:00:00Z') + i * 1_234_567, value: i * 0.001, seq: i })),
];

describe('binary COPY of planned readings', () => {
  let infra: IsolatedInfra;
  let db: Client;

  beforeAll(async () => {
    infra = await isolatedInfra();
    db = new Client({ connectionString: infra.databaseUrl });
    await db.connect();
    for (const table of ['by_copy', 'by_text']) {
      await db.query(`CREATE TABLE ${table} (LIKE ingest.readings INCLUDING DEFAULTS, PRIMARY KEY (org_id, device_id, channel, read_at))`);
    }
  });
  afterAll(async () => {
    await db?.end();
    await infra?.cleanup();
  });

  it('stores exactly what the text path (comma-joined columns, to_timestamp(ms / 1000.0)) stores, in more than one chunk', async () => {
    const chunks = encodeReadingsCopy(ROWS);
    expect(chunks.length).toBeGreaterThan(1);
    expect(await copyFrom(db, `COPY by_copy (${READING_COPY_COLUMNS}) FROM STDIN (FORMAT binary)`, chunks)).toBe(ROWS.length);
    const column = (pick: (r: PlannedReading) => unknown) => ROWS.map(pick).join(',');
    await db.query(
      `INSERT INTO by_text (${READING_COPY_COLUMNS})
       SELECT o, d, c, to_timestamp(t / 1000.0), v, to_timestamp(p / 1000.0), dl, r, cu, s
       FROM unnest(string_to_array($1, ','), string_to_array($2, ',')::bigint[], string_to_array($3, ',')::smallint[],
                   string_to_array($4, ',')::float8[], string_to_array($5, ',')::float8[], string_to_array($6, ',', '')::float8[],
                   string_to_array($7, ',')::float8[], string_to_array($8, ',')::bool[], string_to_array($9, ',')::float8[],
                   string_to_array($10, ',')::bigint[]) AS u(o, d, c, t, v, p, dl, r, cu, s)`,
      [
        column((r) => r.orgId),
        column((r) => r.deviceId),
        column((r) => r.channel),
        column((r) => r.readAt),
        column((r) => r.value),
        column((r) => r.prevReadAt ?? ''),
        column((r) => r.delta),
        column((r) => (r.reset ? 't' : 'f')),
        column((r) => r.cum),
        column((r) => r.seq),
      ],
    );
    // Text of every column (float8 text tells -0 from 0 and shows every bit), microseconds of the times.
    const asText = `SELECT org_id, device_id::text, channel::text, (extract(epoch from read_at) * 1e6)::numeric::text AS read_at, value::text,
        (extract(epoch from prev_read_at) * 1e6)::numeric::text AS prev_read_at, delta::text, reset::text, cum::text, stream_seq::text`;
    await db.query('SET extra_float_digits = 3');
    const differ = await db.query(`(${asText} FROM by_copy EXCEPT ${asText} FROM by_text) UNION ALL (${asText} FROM by_text EXCEPT ${asText} FROM by_copy)`);
    expect(differ.rows).toEqual([]);
    const edges = await db.query(`${asText} FROM by_copy WHERE org_id <> 'org_a' OR device_id < 1000 ORDER BY org_id, device_id, read_at LIMIT 8`);
    expect(edges.rows.find((r) => r.device_id === String(Number.MAX_SAFE_INTEGER))).toMatchObject({ value: '0', delta: '0', cum: '0', channel: '64', stream_seq: String(Number.MAX_SAFE_INTEGER) });
  });

  it('is refused like an INSERT when a row breaks a constraint, and leaves nothing behind', async () => {
    await db.query('BEGIN');
    await expect(copyFrom(db, `COPY by_copy (${READING_COPY_COLUMNS}) FROM STDIN (FORMAT binary)`, encodeReadingsCopy([row({ orgId: 'dup' }), row({ orgId: 'dup' })]))).rejects.toMatchObject({ code: '23505' });
    await db.query('ROLLBACK');
    expect((await db.query(`SELECT count(*)::int AS n FROM by_copy WHERE org_id = 'dup'`)).rows[0].n).toBe(0);
  });
});
