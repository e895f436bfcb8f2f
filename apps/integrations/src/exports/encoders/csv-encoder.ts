import { stringify } from 'csv-stringify/sync';
import { EXPORT_COLUMNS } from '@meter/contracts';
import type { ExportRow } from '../export-row';
import type { RowEncoder } from './row-encoder';

const COLUMNS = [...EXPORT_COLUMNS];

/** RFC 4180: a header line, fields quoted when they must be, UTF-8, `\n` line ends; null is an empty field. */
export class CsvRowEncoder implements RowEncoder {
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
