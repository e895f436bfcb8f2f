/**
 * One-dimensional Postgres arrays in the binary wire format (`array_send`),
 * to be sent as query parameters. node-postgres sends a Buffer parameter in
 * binary format, so `unnest($1::float8[])` receives it through `array_recv`:
 * no text to parse per element on the server, and no number turned into text
 * on the client. The element type named here must be the one the statement
 * casts the parameter to (`$n::timestamptz[]` takes `PgArrayWriter.timestamptz`),
 * or Postgres refuses the parameter.
 */
export class PgArrayWriter {
  private buffer: Buffer;
  private at = HEADER_BYTES;
  private count = 0;
  private nulls = false;

  private constructor(
    private readonly elementOid: number,
    capacity: number,
  ) {
    this.buffer = Buffer.allocUnsafe(HEADER_BYTES + capacity);
  }

  /** `expected` elements size the buffer once; more still fit, it grows. */
  static bool = (expected = 0) => new PgArrayWriter(OID.bool, expected * 5);
  static int2 = (expected = 0) => new PgArrayWriter(OID.int2, expected * 6);
  static int8 = (expected = 0) => new PgArrayWriter(OID.int8, expected * 12);
  static float8 = (expected = 0) => new PgArrayWriter(OID.float8, expected * 12);
  static timestamptz = (expected = 0) => new PgArrayWriter(OID.timestamptz, expected * 12);
  static text = (expected = 0) => new PgArrayWriter(OID.text, expected * 20);

  get length(): number {
    return this.count;
  }

  null(): this {
    this.room(4);
    this.at = this.buffer.writeInt32BE(-1, this.at);
    this.nulls = true;
    this.count++;
    return this;
  }

  bool(value: boolean): this {
    this.element(1);
    this.buffer[this.at++] = value ? 1 : 0;
    return this;
  }

  int2(value: number): this {
    this.element(2);
    this.at = this.buffer.writeInt16BE(value, this.at);
    return this;
  }

  /** An integer within ±2^53 (a JS safe integer). */
  int8(value: number): this {
    this.element(8);
    this.writeInt64(value);
    return this;
  }

  float8(value: number): this {
    this.element(8);
    this.at = this.buffer.writeDoubleBE(value, this.at);
    return this;
  }

  /** An instant given in epoch milliseconds (µs fractions kept); sent as µs since 2000-01-01 UTC, Postgres's own form. */
  timestamptz(epochMs: number): this {
    this.element(8);
    const micros = Math.round(epochMs * 1000);
    if (Number.isSafeInteger(micros)) this.writeInt64(micros - PG_EPOCH_MICROS);
    // Beyond ±2^53 µs (before 1684 or after 2255) a double cannot hold every µs: exact integer arithmetic.
    else this.at = this.buffer.writeBigInt64BE(BigInt(Math.trunc(epochMs)) * 1000n + BigInt(Math.round((epochMs % 1) * 1000)) - PG_EPOCH_MICROS_BIG, this.at);
    return this;
  }

  text(value: string): this {
    const bytes = Buffer.byteLength(value);
    this.element(bytes);
    this.at += this.buffer.write(value, this.at);
    return this;
  }

  /** The array: header (1 dimension, the null flag, the element type, its length and lower bound 1) and the elements. */
  finish(): Buffer {
    const b = this.buffer;
    b.writeInt32BE(1, 0);
    b.writeInt32BE(this.nulls ? 1 : 0, 4);
    b.writeInt32BE(this.elementOid, 8);
    b.writeInt32BE(this.count, 12);
    b.writeInt32BE(1, 16);
    return b.subarray(0, this.at);
  }

  /** Room for one element of `bytes` bytes, and its length prefix. */
  private element(bytes: number) {
    this.room(4 + bytes);
    this.at = this.buffer.writeInt32BE(bytes, this.at);
    this.count++;
  }

  private writeInt64(value: number) {
    const high = Math.floor(value / 2 ** 32);
    this.at = this.buffer.writeInt32BE(high, this.at);
    this.at = this.buffer.writeUInt32BE(value - high * 2 ** 32, this.at);
  }

  private room(bytes: number) {
    if (this.at + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + bytes));
    this.buffer.copy(grown, 0, 0, this.at);
    this.buffer = grown;
  }
}

/** ndim, has-null flag, element type, then one (length, lower bound) pair. */
const HEADER_BYTES = 20;

/** Element type OIDs (pg_type). */
const OID = { bool: 16, int8: 20, int2: 21, text: 25, float8: 701, timestamptz: 1184 } as const;

/** 2000-01-01T00:00:00Z in epoch µs. */
const PG_EPOCH_MICROS = 946_684_800_000_000;
const PG_EPOCH_MICROS_BIG = 946_684_800_000_000n;
