import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { ExportRow } from '../export-row';
import { epochDay, INT64_DECIMAL_PRECISION, unscaledDecimal } from './parquet-values';
import type { FileShape, RowEncoder } from './row-encoder';

/** One element of the file's schema, as the writer takes it. */
type SchemaElement = ConstructorParameters<typeof ParquetWriter>[0]['schema'][number];

type ColumnType = 'INT64' | 'INT32' | 'DATE' | 'DECIMAL' | 'STRING';
type Column = { name: keyof ExportRow; type: ColumnType; nullable: boolean };

/**
 * The data file's Parquet columns, typed as DuckDB, Spark and pandas read them without a CAST:
 * integers INT64/INT32, `date` DATE, the decimals DECIMAL(18, the file's largest decimal places)
 * stored as INT64, text UTF-8 strings.
 */
const COLUMNS: Column[] = [
  { name: 'device_id', type: 'INT64', nullable: false },
  { name: 'channel', type: 'INT32', nullable: false },
  { name: 'date', type: 'DATE', nullable: false },
  { name: 'consumption', type: 'DECIMAL', nullable: false },
  { name: 'unit', type: 'STRING', nullable: false },
  { name: 'register_start', type: 'DECIMAL', nullable: true },
  { name: 'register_end', type: 'DECIMAL', nullable: true },
  { name: 'alerts', type: 'STRING', nullable: true },
  { name: 'quality', type: 'STRING', nullable: false },
];

function schemaElement({ name, type, nullable }: Column, scale: number): SchemaElement {
  const repetition_type = nullable ? 'OPTIONAL' : 'REQUIRED';
  switch (type) {
    case 'INT64':
    case 'INT32':
      return { name, type, repetition_type };
    case 'DATE':
      return { name, type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' }, repetition_type };
    case 'DECIMAL': {
      const precision = INT64_DECIMAL_PRECISION;
      return { name, type: 'INT64', converted_type: 'DECIMAL', scale, precision, logical_type: { type: 'DECIMAL', scale, precision }, repetition_type };
    }
    case 'STRING':
      return { name, type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' }, repetition_type };
  }
}

/** A column's values as the writer takes them for its schema element. */
function columnValues(column: Column, rows: readonly ExportRow[], scale: number): unknown[] {
  const { name, type } = column;
  switch (type) {
    case 'INT64':
      return rows.map((r) => BigInt(r[name] as number));
    case 'DATE':
      return rows.map((r) => epochDay(r[name] as string));
    case 'DECIMAL':
      return rows.map((r) => {
        const text = r[name] as string | null;
        return text === null ? null : unscaledDecimal(text, scale);
      });
    default:
      return rows.map((r) => r[name]);
  }
}

/**
 * Parquet through hyparquet-writer, one row group per batch: each batch's
 * bytes are taken out of the writer's buffer as soon as they are encoded,
 * and the footer (row group offsets, statistics) comes at the end. The
 * decimals' scale is fixed before the first row: the file's largest decimal
 * places, so every value of a device with fewer is exact too.
 */
export class ParquetRowEncoder implements RowEncoder {
  private readonly out: Buffer[] = [];
  private readonly bytes = Object.assign(new ByteWriter(), { flush: () => this.flush() });
  private readonly writer: ParquetWriter;
  private readonly scale: number;

  constructor(shape: FileShape) {
    this.scale = shape.decimalPlaces;
    const schema = [{ name: 'root', num_children: COLUMNS.length }, ...COLUMNS.map((c) => schemaElement(c, this.scale))];
    this.writer = new ParquetWriter({ writer: this.bytes, schema, createdBy: 'meter-platform export' });
  }

  write(rows: readonly ExportRow[]): Buffer[] {
    if (rows.length === 0) return this.take();
    const columnData = COLUMNS.map((c) => ({ name: c.name, data: columnValues(c, rows, this.scale) }));
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
