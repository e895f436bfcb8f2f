import type { Client } from 'pg';

export interface StoreFigures {
  heapBytes: number;
  indexBytes: number;
  toastBytes: number;
}

export interface StorageFigures {
  readings: number;
  /** the compact store: every partition of `ingest.reading_days` */
  days: StoreFigures;
  changeLogBytes: number;
}

/** What the reading store takes on disk, every partition of it, and the change log. */
export async function storageFigures(db: Client): Promise<StorageFigures> {
  const store = async (table: string): Promise<StoreFigures> => {
    const { rows } = await db.query<{ heap: string | null; index: string | null; total: string | null }>(
      `SELECT sum(pg_relation_size(relid)) AS heap, sum(pg_indexes_size(relid)) AS index, sum(pg_total_relation_size(relid)) AS total
       FROM pg_partition_tree($1::regclass) WHERE isleaf`,
      [table],
    );
    const [heap, index, total] = [Number(rows[0].heap ?? 0), Number(rows[0].index ?? 0), Number(rows[0].total ?? 0)];
    return { heapBytes: heap, indexBytes: index, toastBytes: total - heap - index };
  };
  const { rows } = await db.query<{ changes: string; readings: string }>(
    `SELECT pg_total_relation_size('ingest.reading_changes') AS changes, (SELECT coalesce(sum(reading_count), 0) FROM ingest.reading_days) AS readings`,
  );
  return {
    readings: Number(rows[0].readings),
    days: await store('ingest.reading_days'),
    changeLogBytes: Number(rows[0].changes),
  };
}

/** Bytes per reading, one decimal. */
export const perReading = (bytes: number, readings: number) => Math.round((bytes / readings) * 10) / 10;

/** A store's bytes per reading with the change log, all included, and its parts. */
export function describeStore(store: StoreFigures, changeLogBytes: number, readings: number): { total: number; text: string } {
  const total = perReading(store.heapBytes + store.indexBytes + store.toastBytes + changeLogBytes, readings);
  return {
    total,
    text:
      `${total} B/reading all included: heap ${perReading(store.heapBytes, readings)}, indexes ${perReading(store.indexBytes, readings)}, ` +
      `TOAST ${perReading(store.toastBytes, readings)}, change log ${perReading(changeLogBytes, readings)}`,
  };
}
