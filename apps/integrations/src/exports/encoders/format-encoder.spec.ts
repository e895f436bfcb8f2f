import { parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
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

const encode = (format: 'csv' | 'ndjson' | 'parquet', batches: ExportRow[][]) => {
  const encoder = rowEncoder(format);
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

  it('Parquet: reads back as the same rows over several row groups, integers as integers', async () => {
    const bytes = encode('parquet', [[rows[0]], [rows[1], rows[2]]]);
    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    const read = await parquetReadObjects({ file });
    expect(read.map((r) => ({ ...r, device_id: Number(r.device_id) }))).toEqual(rows);
    expect(typeof read[0].device_id).toBe('bigint');
    expect(read[0].channel).toBe(1);
  });

  it('Parquet: a day without rows is a valid empty file', async () => {
    const bytes = encode('parquet', []);
    const read = await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) });
    expect(read).toEqual([]);
  });
});
