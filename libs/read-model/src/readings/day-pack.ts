/**
 * The `bytea` of the compact reading store (docs/capacity.md, "A compact
 * reading store"): one channel's readings of one UTC day, exact to the bit.
 *
 * Layout, columnar so each column's steps stay small:
 * - byte 0: format version, 1.
 * - reading count: unsigned LEB128 varint.
 * - value mode, one byte: `s` in 0..15 stores each value v as the safe integer
 *   mantissa m with m / 10**s === v, the smallest s for which every value of
 *   the day does so; 255 (raw) stores each value as a big-endian float64
 *   (a day with a -0, or with a value no decimal scale holds exactly).
 * - times (µs in the day): the first as a varint, the second as a varint step
 *   from the first, each later one as a zigzag varint step of the step, so
 *   regular readings cost one byte each.
 * - values: raw, 8 bytes each; or the first mantissa as a varint, then zigzag
 *   varint steps (negative after a register reset).
 * - stream sequences: the first as a varint, then zigzag varint steps (late
 *   readings can carry smaller sequences than their neighbours).
 *
 * Varints are LEB128 of integers up to 2^53 and zigzags of steps up to
 * ±2^53, in arithmetic rather than 32-bit bitwise operators. A zigzag is
 * 2|n| - 1 for negative n, which above 2^53 is not always a double: it is
 * written as 2r + sign with r = |n| - sign, so no number past 2^53 is formed.
 */

/** One reading of a channel-day as the compact store keeps it. */
export interface DayReading {
  /** microseconds since the start of the UTC day: an integer, 0 <= us < 86_400_000_000 */
  us: number;
  /** the register value, a double >= 0 (also -0 must round-trip) as ingest parsed it */
  value: number;
  /** JetStream stream sequence that wrote it: a safe integer >= 0 */
  seq: number;
}

const FORMAT_VERSION = 1;
const RAW_VALUES = 255;
const MAX_SCALE = 15;
const DAY_US = 86_400_000_000;
/** 10**s as exact literals (all below 2^53, so each is the exact power). */
const POWERS_OF_TEN = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
/** Bytes a reading takes at most: time < 2^38 after zigzag (6), value or mantissa step < 2^55 (8), seq step < 2^55 (8). */
const MAX_READING_BYTES = 22;
/** Version, count (< 2^53: 8), value mode. */
const MAX_HEADER_BYTES = 10;
/** The fewest bytes one reading can take: a byte each for time, value and seq; 8 for a raw value. */
const MIN_READING_BYTES = 3;
const MIN_RAW_READING_BYTES = 10;

/** Days up to this size are packed in one reused buffer, then copied out at their size. */
const SCRATCH_BYTES = 64 * 1024;
let scratch: Buffer | undefined;

/** Packs a day's readings, strictly ascending by `us` (throws RangeError otherwise, or on out-of-range fields). */
export function packDay(readings: readonly DayReading[]): Buffer {
  const mode = valueModeOf(readings);
  const bound = MAX_HEADER_BYTES + readings.length * MAX_READING_BYTES;
  const out = bound <= SCRATCH_BYTES ? (scratch ??= Buffer.allocUnsafe(SCRATCH_BYTES)) : Buffer.allocUnsafe(bound);
  const n = readings.length;

  out[0] = FORMAT_VERSION;
  let at = writeUvarint(out, 1, n);
  out[at++] = mode;

  if (n > 0) {
    at = writeUvarint(out, at, readings[0].us);
    if (n > 1) at = writeUvarint(out, at, readings[1].us - readings[0].us);
    for (let i = 2; i < n; i++) {
      at = writeZigzag(out, at, readings[i].us - 2 * readings[i - 1].us + readings[i - 2].us);
    }

    if (mode === RAW_VALUES) {
      for (let i = 0; i < n; i++) at = out.writeDoubleBE(readings[i].value, at);
    } else {
      const power = POWERS_OF_TEN[mode];
      let previous = Math.round(readings[0].value * power);
      at = writeUvarint(out, at, previous);
      for (let i = 1; i < n; i++) {
        const mantissa = Math.round(readings[i].value * power);
        at = writeZigzag(out, at, mantissa - previous);
        previous = mantissa;
      }
    }

    at = writeUvarint(out, at, readings[0].seq);
    for (let i = 1; i < n; i++) at = writeZigzag(out, at, readings[i].seq - readings[i - 1].seq);
  }

  const packed = Buffer.allocUnsafe(at);
  out.copy(packed, 0, 0, at);
  return packed;
}

/** The readings of a packed day, ascending by `us`; throws RangeError on malformed or truncated input. */
export function unpackDay(packed: Uint8Array): DayReading[] {
  const cursor = new Cursor(packed);
  const { count, mode } = readHeader(cursor);
  const readings: DayReading[] = [];
  if (count === 0) return expectEnd(cursor, readings);

  // Columnar on the wire, so each reading is made in the times pass and completed in the later two.
  let us = cursor.uvarint();
  if (us >= DAY_US) throw malformed(`time ${us} µs is past the day`);
  readings.push({ us, value: 0, seq: 0 });
  let step = 0;
  for (let i = 1; i < count; i++) {
    step = i === 1 ? cursor.uvarint() : step + cursor.zigzag();
    us += step;
    if (step < 1 || us >= DAY_US) throw malformed(`reading ${i}'s time is not after the previous one within the day`);
    readings.push({ us, value: 0, seq: 0 });
  }

  if (mode === RAW_VALUES) {
    for (let i = 0; i < count; i++) {
      const value = cursor.float64();
      if (!(value >= 0 && value < Infinity)) throw malformed(`reading ${i}'s value ${value} is not a finite value >= 0`);
      readings[i].value = value;
    }
  } else {
    const power = POWERS_OF_TEN[mode];
    let mantissa = cursor.uvarint();
    readings[0].value = mantissa / power;
    for (let i = 1; i < count; i++) {
      mantissa += cursor.zigzag();
      if (mantissa < 0 || !Number.isSafeInteger(mantissa)) throw malformed(`reading ${i}'s mantissa ${mantissa} is not a safe integer >= 0`);
      readings[i].value = mantissa / power;
    }
  }

  let seq = cursor.uvarint();
  readings[0].seq = seq;
  for (let i = 1; i < count; i++) {
    seq += cursor.zigzag();
    if (seq < 0 || !Number.isSafeInteger(seq)) throw malformed(`reading ${i}'s sequence ${seq} is not a safe integer >= 0`);
    readings[i].seq = seq;
  }
  return expectEnd(cursor, readings);
}

/** How many readings a packed day holds, read from its header without unpacking the rest. */
export function packedDayCount(packed: Uint8Array): number {
  return readHeader(new Cursor(packed)).count;
}

/**
 * The day's value mode (see the header comment), checking every field on the
 * way. The smallest scale all values share is at least the largest of each
 * value's own smallest scale; usually it is that one, but near 2^53 a value
 * can hold at one scale and not at a larger one, so it is checked for all.
 */
function valueModeOf(readings: readonly DayReading[]): number {
  let floor = 0;
  let raw = false;
  for (let i = 0; i < readings.length; i++) {
    const { us, value, seq } = readings[i];
    if (!Number.isInteger(us) || us < 0 || us >= DAY_US) throw new RangeError(`packDay: reading ${i}'s us ${us} is not an integer in [0, ${DAY_US})`);
    if (i > 0 && !(us > readings[i - 1].us)) throw new RangeError(`packDay: reading ${i}'s us ${us} is not after the previous one's ${readings[i - 1].us}`);
    if (!Number.isSafeInteger(seq) || seq < 0) throw new RangeError(`packDay: reading ${i}'s seq ${seq} is not a safe integer >= 0`);
    if (typeof value !== 'number' || !(value >= 0) || value === Infinity)
      throw new RangeError(`packDay: reading ${i}'s value ${value} is not a finite number >= 0`);
    if (raw) continue;
    if (Object.is(value, -0)) raw = true;
    else {
      while (floor <= MAX_SCALE && !holdsAt(value, floor)) floor++;
      if (floor > MAX_SCALE) raw = true;
    }
  }
  if (raw) return RAW_VALUES;
  for (let scale = floor; scale <= MAX_SCALE; scale++) {
    if (readings.every((reading) => holdsAt(reading.value, scale))) return scale;
  }
  return RAW_VALUES;
}

/** Whether `value` is m / 10**scale for the safe integer m nearest value * 10**scale: one exactly rounded division of two exact doubles. */
function holdsAt(value: number, scale: number): boolean {
  const power = POWERS_OF_TEN[scale];
  const mantissa = Math.round(value * power);
  return Number.isSafeInteger(mantissa) && mantissa / power === value;
}

/** Writes n (a safe integer >= 0) as LEB128 at `at`; returns the offset after it. */
function writeUvarint(out: Buffer, at: number, n: number): number {
  while (n >= 128) {
    out[at++] = (n % 128) + 128;
    n = Math.floor(n / 128);
  }
  out[at++] = n;
  return at;
}

/**
 * Writes the zigzag of n (a safe integer) as LEB128: z = 2|n| - sign, formed
 * as 2r + sign with r = |n| - sign, so its low 7 bits are 2(r mod 64) + sign
 * and the rest is floor(r / 64), all exact.
 */
function writeZigzag(out: Buffer, at: number, n: number): number {
  const sign = n < 0 ? 1 : 0;
  const r = n < 0 ? -n - 1 : n;
  const low = (r % 64) * 2 + sign;
  const rest = Math.floor(r / 64);
  if (rest === 0) {
    out[at] = low;
    return at + 1;
  }
  out[at] = low + 128;
  return writeUvarint(out, at + 1, rest);
}

function readHeader(cursor: Cursor): { count: number; mode: number } {
  const version = cursor.byte();
  if (version !== FORMAT_VERSION) throw malformed(`unknown format version ${version}`);
  const count = cursor.uvarint();
  const mode = cursor.byte();
  if (mode > MAX_SCALE && mode !== RAW_VALUES) throw malformed(`unknown value mode ${mode}`);
  const least = count * (mode === RAW_VALUES ? MIN_RAW_READING_BYTES : MIN_READING_BYTES);
  if (least > cursor.remaining()) throw malformed(`${count} readings cannot fit in ${cursor.remaining()} bytes`);
  return { count, mode };
}

function expectEnd(cursor: Cursor, readings: DayReading[]): DayReading[] {
  if (cursor.remaining() !== 0) throw malformed(`${cursor.remaining()} bytes after the last reading`);
  return readings;
}

function malformed(why: string): RangeError {
  return new RangeError(`unpackDay: ${why}`);
}

/** Reads the packed bytes front to back, refusing to run past their end. */
class Cursor {
  private at = 0;
  private view: DataView | undefined;

  constructor(private readonly bytes: Uint8Array) {}

  remaining(): number {
    return this.bytes.length - this.at;
  }

  byte(): number {
    if (this.at >= this.bytes.length) throw malformed('truncated');
    return this.bytes[this.at++];
  }

  /** A LEB128 varint of at most 8 bytes, a safe integer, in its shortest form. */
  uvarint(): number {
    let b = this.byte();
    if (b < 128) return b;
    let n = b - 128;
    let scale = 128;
    for (;;) {
      b = this.byte();
      if (b < 128) {
        if (b === 0) throw malformed('overlong varint');
        n += b * scale;
        if (n > Number.MAX_SAFE_INTEGER) throw malformed('varint past 2^53');
        return n;
      }
      n += (b - 128) * scale;
      scale *= 128;
      if (scale === 2 ** 56) throw malformed('varint longer than 8 bytes');
    }
  }

  /** A zigzag LEB128 varint: its first byte holds 2(r mod 64) + sign, the varint after it floor(r / 64). */
  zigzag(): number {
    const b = this.byte();
    const sign = b & 1;
    let r = (b & 127) >>> 1;
    if (b >= 128) {
      const rest = this.uvarint();
      if (rest === 0) throw malformed('overlong varint');
      r += rest * 64;
      if (!Number.isSafeInteger(r)) throw malformed('zigzag varint past 2^54');
    }
    return sign ? -r - 1 : r;
  }

  float64(): number {
    if (this.remaining() < 8) throw malformed('truncated');
    this.view ??= new DataView(this.bytes.buffer, this.bytes.byteOffset, this.bytes.byteLength);
    const value = this.view.getFloat64(this.at);
    this.at += 8;
    return value;
  }
}
