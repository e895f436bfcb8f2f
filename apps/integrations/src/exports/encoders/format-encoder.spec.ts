import { parquetMetadata } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { readParquetWithDuckDb } from '@meter/testing';
import type { ExportRow } from '../export-row';
import { rowEncoder } from './format-encoder';

const rows: ExportRow[] = [
  {
    device_id: 1,
    channel: 1,
    date: '2026-03-10',
    consumption: '1.250',
    unit: 'm³',
    register_start: '10.000',
    register_end: '11.250',
    alerts: null,
    quality: 'ACTUAL',
  },
  {
    device_id: 9007199254740991,
    channel: 2,
    date: '2026-03-10',
    consumption: '0',
    unit: 'L',
    register_start: null,
    register_end: null,
    alerts: 'NO_DATA',
    quality: 'MISSING',
  },
  {
    device_id: 12,
    channel: 1,
    date: '2026-03-10',
    consumption: '2.000',
    unit: 'gal, "US"',
    register_start: '1.000',
    register_end: '2.000',
    alerts: 'NO_DATA|REGISTER_RESET',
    quality: 'ESTIMATED',
  },
];

const encode = (format: 'csv' | 'ndjson' | 'parquet', batches: ExportRow[][], decimalPlaces = 3) => {
  const encoder = rowEncoder(format, { decimalPlaces });
  return Buffer.concat([...batches.flatMap((b) => encoder.write(b)), ...encoder.end()]);
};

describe('row encoders', () => {
  it('CSV: header, RFC 4180 quoting, empty fields for null, \\n line ends, the same bytes whatever the batching', () => {
    const text = encode('csv', [rows]).toString('utf8');
    expect(text).toBe(
      'device_id,channel,date,consumption,unit,register_start,register_end,alerts,quality\n' +
        '1,1,2026-03-10,1.250,m³,10.000,11.250,,ACTUAL\n' +
        '9007199254740991,2,2026-03-10,0,L,,,NO_DATA,MISSING\n' +
        '12,1,2026-03-10,2.000,"gal, ""US""",1.000,2.000,NO_DATA|REGISTER_RESET,ESTIMATED\n',
    );
    expect(encode('csv', [[rows[0]], [], [rows[1], rows[2]]]).toString('utf8')).toBe(text);
  });

  it('CSV: a day without rows is the header alone', () => {
    expect(encode('csv', []).toString('utf8')).toBe('device_id,channel,date,consumption,unit,register_start,register_end,alerts,quality\n');
  });

  it('NDJSON: one object per line in column order, null for empty values', () => {
    const lines = encode('ndjson', [rows.slice(0, 2)])
      .toString('utf8')
      .split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(lines[1]).toBe(
      '{"device_id":9007199254740991,"channel":2,"date":"2026-03-10","consumption":"0","unit":"L","register_start":null,"register_end":null,"alerts":"NO_DATA","quality":"MISSING"}',
    );
    expect(Object.keys(JSON.parse(lines[0]))).toEqual([
      'device_id',
      'channel',
      'date',
      'consumption',
      'unit',
      'register_start',
      'register_end',
      'alerts',
      'quality',
    ]);
  });

  it('Parquet: DuckDB reads typed columns, the same rows over several row groups, values exact', async () => {
    const file = await readParquetWithDuckDb(encode('parquet', [[rows[0]], [rows[1], rows[2]]]));
    expect(file.types).toEqual({
      device_id: 'BIGINT',
      channel: 'INTEGER',
      date: 'DATE',
      consumption: 'DECIMAL(18,3)',
      unit: 'VARCHAR',
      register_start: 'DECIMAL(18,3)',
      register_end: 'DECIMAL(18,3)',
      alerts: 'VARCHAR',
      quality: 'VARCHAR',
    });
    // Every value as the CSV writes it, but the no-data day's "0", which a DECIMAL(18,3) holds as 0.000.
    expect(file.rows).toEqual(
      rows.map((r) => ({ ...r, device_id: String(r.device_id), channel: String(r.channel), consumption: r.consumption === '0' ? '0.000' : r.consumption })),
    );
  });

  it("Parquet: the file's largest decimal places scale every decimal, exactly, beyond a double's 15 digits", async () => {
    const big: ExportRow = { ...rows[0], consumption: '123456789012.345', register_start: '9876543210.000', register_end: '9876543211.25' };
    const file = await readParquetWithDuckDb(encode('parquet', [[big]], 6));
    expect(file.types).toMatchObject({ consumption: 'DECIMAL(18,6)', register_start: 'DECIMAL(18,6)', register_end: 'DECIMAL(18,6)' });
    expect(file.rows[0]).toMatchObject({ consumption: '123456789012.345000', register_start: '9876543210.000000', register_end: '9876543211.250000' });
  });

  it('Parquet: the schema carries the logical types (DATE; DECIMAL with precision and scale) beside the converted ones', () => {
    const bytes = encode('parquet', [rows]);
    const { schema } = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    const byName = Object.fromEntries(schema.map((e) => [e.name, e]));
    expect(byName.date).toMatchObject({ type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' }, repetition_type: 'REQUIRED' });
    expect(byName.register_end).toMatchObject({
      type: 'INT64',
      converted_type: 'DECIMAL',
      scale: 3,
      precision: 18,
      logical_type: { type: 'DECIMAL', scale: 3, precision: 18 },
      repetition_type: 'OPTIONAL',
    });
  });

  it('Parquet: a day without rows is a valid empty file', async () => {
    const file = await readParquetWithDuckDb(encode('parquet', []));
    expect(file.rows).toEqual([]);
    expect(file.types.consumption).toBe('DECIMAL(18,3)');
  });
});
