import type { Client } from 'pg';

export interface StorageFigures {
  readings: number;
  heapBytes: number;
  indexBytes: number;
  toastBytes: number;
  changeLogBytes: number;
}

/** What the reading store takes on disk, every partition of `ingest.readings` and the change log. */
export async function storageFigures(db: Client): Promise<StorageFigures> {
  const { rows } = await db.query<{ heap: string; index: string; total: string; changes: string; readings: string }>(`
    SELECT sum(pg_relation_size(relid)) AS heap, sum(pg_indexes_size(relid)) AS index, sum(pg_total_relation_size(relid)) AS total,
           pg_total_relation_size('ingest.reading_changes') AS changes,
           (SELECT count(*) FROM ingest.readings) AS readings
    FROM pg_partition_tree('ingest.readings') WHERE isleaf`);
  const r = rows[0];
  const [heap, index, total] = [Number(r.heap), Number(r.index), Number(r.total)];
  return { readings: Number(r.readings), heapBytes: heap, indexBytes: index, toastBytes: total - heap - index, changeLogBytes: Number(r.changes) };
}

/** Bytes per reading, one decimal. */
export const perReading = (bytes: number, readings: number) => Math.round((bytes / readings) * 10) / 10;
