import { Client } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedInfra, type IsolatedInfra } from '@meter/testing';
import { PgArrayWriter } from './pg-binary-array';

/** Each binary array goes through Postgres's array_recv and comes back as text, compared with what the same values give as text. */
describe('PgArrayWriter against Postgres', () => {
  let infra: IsolatedInfra;
  let db: Client;

  beforeAll(async () => {
    infra = await isolatedInfra({ migrate: false });
    db = new Client({ connectionString: infra.databaseUrl });
    await db.connect();
    await db.query(`SET TIME ZONE 'UTC'`);
  });
  afterAll(async () => {
    await db?.end();
    await infra?.cleanup();
  });

  const roundTrip = async (cast: string, array: Buffer) =>
    (await db.query<{ v: string | null }>(`SELECT u::text AS v FROM unnest($1::${cast}[]) WITH ORDINALITY AS t(u, i) ORDER BY i`, [array])).rows.map(
      (r) => r.v,
    );

  it('sends doubles exactly, signs, zeros and extremes included', async () => {
    const values = [0, -0, 1, -1.5, 0.1, 1 / 3, 123456.789, 2 ** 53 + 2, Number.MAX_VALUE, Number.MIN_VALUE, -1e-300];
    const writer = PgArrayWriter.float8(2);
    for (const v of values) writer.float8(v);
    const back = await roundTrip('float8', writer.finish());
    // extra_float_digits defaults to 1 (shortest exact text) on Postgres 12+: the text parses back to the same double.
    expect(back.map(Number)).toEqual(values.map((v) => (Object.is(v, -0) ? -0 : v)));
  });

  it('sends 64- and 16-bit integers, negative ones and the safe-integer edges', async () => {
    const int8 = [0, 1, -1, 2 ** 31, -(2 ** 31) - 1, 2 ** 32 + 5, -(2 ** 40) - 3, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
    const w8 = PgArrayWriter.int8();
    for (const v of int8) w8.int8(v);
    expect(await roundTrip('int8', w8.finish())).toEqual(int8.map(String));
    const int2 = [1, 2, 32767, -32768, 0];
    const w2 = PgArrayWriter.int2();
    for (const v of int2) w2.int2(v);
    expect(await roundTrip('int2', w2.finish())).toEqual(int2.map(String));
  });

  it('sends instants as Postgres timestamps, to the microsecond, from year 1 to 9999', async () => {
    const instants = [
      '2026-11-21T10:00:00.000Z',
      '2000-01-01T00:00:00.000Z',
      '1999-12-31T23:59:59.999Z',
      '1970-01-01T00:00:00.000Z',
      '1969-12-31T23:59:59.999Z',
      '0001-01-01T00:00:00.000Z',
      '9999-12-31T23:59:59.999Z',
      '2255-06-05T23:47:34.740Z',
    ];
    const w = PgArrayWriter.timestamptz();
    for (const t of instants) w.timestamptz(Date.parse(t));
    w.timestamptz(Date.parse('2026-03-29T01:00:00.000Z') + 0.123); // 123 µs
    w.timestamptz(Date.parse('9999-12-31T23:59:59.000Z') + 999.5); // a double holds only 1/32 ms steps there
    const expected = (
      await db.query<{ v: string }>(`SELECT u::timestamptz::text AS v FROM unnest($1::text[]) WITH ORDINALITY AS t(u, i) ORDER BY i`, [
        [...instants, '2026-03-29T01:00:00.000123Z', '9999-12-31T23:59:59.9995Z'],
      ])
    ).rows.map((r) => r.v);
    expect(await roundTrip('timestamptz', w.finish())).toEqual(expected);
  });

  it('sends text in UTF-8, booleans, and NULLs where asked', async () => {
    const t = PgArrayWriter.text(1).text('org_1').text('').text('Zürich – 東京 🚰').null().text('a,b{c}"d\\');
    expect(await roundTrip('text', t.finish())).toEqual(['org_1', '', 'Zürich – 東京 🚰', null, 'a,b{c}"d\\']);
    const b = PgArrayWriter.bool().bool(true).bool(false).null();
    expect(await roundTrip('bool', b.finish())).toEqual(['true', 'false', null]);
    const ts = PgArrayWriter.timestamptz().null().timestamptz(0);
    expect(await roundTrip('timestamptz', ts.finish())).toEqual([null, '1970-01-01 00:00:00+00']);
  });

  it('sends an empty array, and grows past the expected size', async () => {
    expect(await roundTrip('float8', PgArrayWriter.float8(10).finish())).toEqual([]);
    const w = PgArrayWriter.int8(1);
    for (let i = 0; i < 10_000; i++) w.int8(i * 7);
    expect(w.length).toBe(10_000);
    const back = await roundTrip('int8', w.finish());
    expect(back).toHaveLength(10_000);
    expect(back[9_999]).toBe(String(9_999 * 7));
  });

  it('is refused, not misread, when the statement casts to another element type', async () => {
    await expect(db.query('SELECT unnest($1::int8[])', [PgArrayWriter.float8().float8(1).finish()])).rejects.toThrow(
      /array element type 701 \(double precision\) instead of expected 20/,
    );
  });
});
