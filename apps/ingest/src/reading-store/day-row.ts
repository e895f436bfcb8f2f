import { unpackDay, type ReadingDay } from '@meter/read-model';

/**
 * A day row of `ingest.reading_days` as the readers select it (alias `r`):
 * the day as days since 1970-01-01 and the previous reading's instant as
 * epoch ms, so neither needs parsing in TS.
 */
export const DAY_ROW_COLUMNS = `(r.day - date '1970-01-01') AS day, (extract(epoch from r.prev_at) * 1000)::float8 AS prev_at, r.prev_value, r.cum_before, r.readings`;

export interface DayRowColumns {
  day: number;
  prev_at: number | null;
  prev_value: number;
  cum_before: number;
  readings: Buffer;
}

/** A selected day row, unpacked. */
export const readingDayOf = (row: DayRowColumns): ReadingDay => ({
  day: row.day,
  readings: unpackDay(row.readings),
  prevAt: row.prev_at,
  prevValue: row.prev_value,
  cumBefore: row.cum_before,
});
