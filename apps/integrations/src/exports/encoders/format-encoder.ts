import type { ExportFormat } from '@meter/contracts';
import { CsvRowEncoder } from './csv-encoder';
import { NdjsonRowEncoder } from './ndjson-encoder';
import { ParquetRowEncoder } from './parquet-encoder';
import type { FileShape, RowEncoder } from './row-encoder';

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  ndjson: 'application/x-ndjson',
  parquet: 'application/vnd.apache.parquet',
};

/** The encoder of one data file in `format`; only Parquet, whose columns are typed, uses the file's shape. */
export function rowEncoder(format: ExportFormat, shape: FileShape): RowEncoder {
  switch (format) {
    case 'csv':
      return new CsvRowEncoder();
    case 'ndjson':
      return new NdjsonRowEncoder();
    case 'parquet':
      return new ParquetRowEncoder(shape);
  }
}
