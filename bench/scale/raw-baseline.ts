import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { PgArrayWriter } from '@meter/persistence';
import type { SeedBatch } from '../shared/read-model-seed';

/**
 * The raw-insert baseline the batch writer is held against (as bench:ingest
 * does): the same readings, the same transaction size, one connection,
 * `INSERT ... SELECT FROM unnest` of binary arrays (as the writer sends
 * them) into a bare table with no key. Readings/s.
 */
export async function rawInsertRate(databaseUrl: string, batches: Iterable<SeedBatch>): Promise<number> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(
      `CREATE TABLE public.bench_raw_readings (org_id text, device_id bigint, channel smallint, read_at timestamptz, value float8, stream_seq bigint)`,
    );
    let readings = 0;
    const started = performance.now();
    for (const { readings: rows = [] } of batches) {
      await db.query('BEGIN');
      await db.query(
        `INSERT INTO public.bench_raw_readings SELECT * FROM unnest($1::text[], $2::bigint[], $3::smallint[], $4::timestamptz[], $5::float8[], $6::bigint[])`,
        columns(rows),
      );
      await db.query('COMMIT');
      readings += rows.length;
    }
    const rate = readings / ((performance.now() - started) / 1000);
    await db.query('DROP TABLE public.bench_raw_readings');
    return rate;
  } finally {
    await db.end();
  }
}

function columns(rows: readonly { orgId: string; deviceId: number; channel: number; readAt: number; value: number; seq: number }[]): Buffer[] {
  const n = rows.length;
  const [org, device, channel, readAt, value, seq] = [
    PgArrayWriter.text(n),
    PgArrayWriter.int8(n),
    PgArrayWriter.int2(n),
    PgArrayWriter.timestamptz(n),
    PgArrayWriter.float8(n),
    PgArrayWriter.int8(n),
  ];
  for (const r of rows) {
    org.text(r.orgId);
    device.int8(r.deviceId);
    channel.int2(r.channel);
    readAt.timestamptz(r.readAt);
    value.float8(r.value);
    seq.int8(r.seq);
  }
  return [org, device, channel, readAt, value, seq].map((column) => column.finish());
}
