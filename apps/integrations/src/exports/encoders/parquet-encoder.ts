import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { ExportRow } from '../export-row';
import type { RowEncoder } from './row-encoder';

type Column = { name: keyof ExportRow; type: 'INT64' | 'INT32' | 'STRING'; nullable: boolean };

/** The data file's Parquet columns: integers as INT64/INT32, decimals and dates as strings (UTF-8). */
const COLUMNS: Column[] = [
  { name: 'device_id', type: 'INT64', nullable: false },
  { name: 'channel', type: 'INT32', nullable: false },
  { name: 'date', type: 'STRING', nullable: false },
  { name: 'consumption', type: 'STRING', nullable: false },
  { name: 'unit', type: 'STRING', nullable: false },
  { name: 'register_start', type: 'STRING', nullable: true },
  { name: 'register_end', type: 'STRING', nullable: true },
  { name: 'alerts', type: 'STRING', nullable: true },
  { name: 'quality', type: 'STRING', nullable: false },
];

const SCHEMA = [
  { name: 'root', num_children: COLUMNS.length },
  ...COLUMNS.map((c) => ({
    name: c.name,
    type: c.type === 'STRING' ? ('BYTE_ARRAY' as const) : c.type,
    ...(c.type === 'STRING' ? { converted_type: 'UTF8' as const, logical_type: { type: 'STRING' as const } } : {}),
    repetition_type: c.nullable ? ('OPTIONAL' as const) : ('REQUIRED' as const),
  })),
];

/**
 * Parquet through hyparquet-writer, one row group per batch: each batch's
 * bytes are taken out of the writer's buffer as soon as they are encoded,
 * and the footer (row group offsets, statistics) comes at the end.
 */
export class ParquetRowEncoder implements RowEncoder {
  private readonly out: Buffer[] = [];
  private readonly bytes = Object.assign(new ByteWriter(), { flush: () => this.flush() });
  private readonly writer: ParquetWriter;

  constructor() {
    this.writer = new ParquetWriter({ writer: this.bytes, schema: SCHEMA, createdBy: 'meter-platform export' });
  }

  write(rows: readonly ExportRow[]): Buffer[] {
    if (rows.length === 0) return this.take();
    const columnData = COLUMNS.map((c) => ({
      name: c.name,
      type: c.type,
      nullable: c.nullable,
      data: c.name === 'device_id' ? rows.map((r) => BigInt(r.device_id)) : rows.map((r) => r[c.name]),
    }));
    void this.writer.write({ columnData, rowGroupSize: rows.length });
    return this.take();
  }

  end(): Buffer[] {
    void this.writer.finish();
    this.flush();
    return this.take();
  }

  /** Moves what the writer has encoded out of its buffer (it then writes from the buffer's start again). */
  private flush() {
    if (this.bytes.index > 0) this.out.push(Buffer.from(this.bytes.buffer.slice(0, this.bytes.index)));
    this.bytes.index = 0;
  }

  private take(): Buffer[] {
    return this.out.splice(0, this.out.length);
  }
}
