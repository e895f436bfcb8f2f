import type { ExportRow } from '../export-row';

/**
 * Turns batches of rows into the bytes of one data file, a batch at a time,
 * so a day of any fleet is written with the memory of one batch.
 */
export interface RowEncoder {
  /** The bytes of these rows (a CSV header comes with the first batch). */
  write(rows: readonly ExportRow[]): Buffer[];
  /** What closes the file (the CSV header of a day without rows, the Parquet footer). */
  end(): Buffer[];
}

/** What a typed file format must know of a day's file before its first row. */
export interface FileShape {
  /** The largest decimal places of the file's devices: the scale of its decimal columns. */
  decimalPlaces: number;
}
