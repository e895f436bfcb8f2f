import { stringify } from 'csv-stringify/sync';
import { EXPORT_COLUMNS, type ExportFormat } from '@meter/contracts';
import type { ExportRow } from '../export-row';
import { ParquetRowEncoder } from './parquet-encoder';

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

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson',
  parquet: 'application/vnd.apache.parquet',
};

const COLUMNS = [...EXPORT_COLUMNS];

/** RFC 4180: a header line, fields quoted when they must be, UTF-8, `\n` line ends; null is an empty field. */
class CsvRowEncoder implements RowEncoder {
  private headerWritten = false;

  write(rows: readonly ExportRow[]): Buffer[] {
    if (rows.length === 0) return [];
    const text = stringify(rows as ExportRow[], { header: !this.headerWritten, columns: COLUMNS, record_delimiter: 'unix' });
    this.headerWritten = true;
    return [Buffer.from(text, 'utf8')];
  }

  end(): Buffer[] {
    return this.headerWritten ? [] : [Buffer.from(`${COLUMNS.join(',')}\n`, 'utf8')];
  }
}

/** One JSON object per line, keys in column order; decimals are strings, empty values null. */
class NdjsonRowEncoder implements RowEncoder {
  write(rows: readonly ExportRow[]): Buffer[] {
    if (rows.length === 0) return [];
    let text = '';
    for (const row of rows) text += `${JSON.stringify(row, COLUMNS)}\n`;
    return [Buffer.from(text, 'utf8')];
  }

  end(): Buffer[] {
    return [];
  }
}

export function rowEncoder(format: ExportFormat): RowEncoder {
  switch (format) {
    case 'csv':
      return new CsvRowEncoder();
    case 'ndjson':
      return new NdjsonRowEncoder();
    case 'parquet':
      return new ParquetRowEncoder();
  }
}
