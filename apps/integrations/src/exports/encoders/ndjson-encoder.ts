import { EXPORT_COLUMNS } from '@meter/contracts';
import type { ExportRow } from '../export-row';
import type { RowEncoder } from './row-encoder';

const COLUMNS = [...EXPORT_COLUMNS];

/** One JSON object per line, keys in column order; decimals are strings, empty values null. */
export class NdjsonRowEncoder implements RowEncoder {
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
