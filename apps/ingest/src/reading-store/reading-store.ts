import { monthsOf, type ReadingRow, type StoredReading } from './reading-batch';

/**
 * The reading store's shared shapes and its partitions. Ingest keeps readings
 * in the compact store (`ingest.reading_days`, written by reading-days.ts;
 * docs/read-model.md, "How a batch is written"). The query side is
 * libs/read-model's readings folder.
 */

/** What writing a batch's readings did. */
export interface WrittenReadings {
  /** readings after their channel's latest stored one, as written */
  appends: ReadingRow[];
  /** the latest stored reading of each channel before the batch, keyed `org\0device\0channel` */
  latest: Map<string, StoredReading>;
  /** per channel, the span of late readings and corrections that changed stored rows */
  late: ChangedRange[];
  /** readings whose stored interval was recomputed against stored neighbours */
  relinked: number;
}

/** A channel's span of late readings and corrections that changed stored rows. */
export interface ChangedRange {
  orgId: string;
  deviceId: number;
  channel: number;
  lo: string;
  hi: string;
  count: number;
}

/** Creates the month partitions the readings need; outside the batch transaction (it is DDL). */
export async function ensurePartitions(query: (sql: string, params: unknown[]) => Promise<unknown>, readAts: Iterable<number>, known: Set<number>) {
  for (const month of monthsOf(readAts)) {
    if (known.has(month)) continue;
    await query('SELECT ingest.ensure_readings_partition($1::timestamptz)', [new Date(month).toISOString()]);
    known.add(month);
  }
}
