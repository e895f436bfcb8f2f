import type { PlannedReading, ReadingRow } from './reading-batch';

/** The columns `encodeReadingsCopy` writes, in order. */
export const READING_COPY_COLUMNS = 'org_id, device_id, channel, read_at, value, prev_read_at, delta, reset, cum, stream_seq';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const TWO_32 = 2 ** 32;
/** 1970-01-01 to 2000-01-01 (Postgres's epoch), in seconds. */
const POSTGRES_EPOCH_S = 946_684_800;
/** Bytes of one row besides its org id: field count, ten lengths and the fixed-size values. */
const FIXED_ROW_BYTES = 2 + 10 * 4 + 8 + 2 + 8 + 8 + 8 + 8 + 1 + 8 + 8;
const CHUNK_BYTES = 1 << 20;

/**
 * The microseconds since 2000 that Postgres stores for `to_timestamp(ms / 1000.0)`:
 * the same float8 steps (float8_timestamptz), rounding half to even like rint().
 * Exact for every millisecond of today's dates; for far-off years it keeps the
 * text path's rounding, so both paths store the same instant.
 */
export function postgresMicros(ms: number): number {
  const x = (ms / 1000 - POSTGRES_EPOCH_S) * 1e6;
  let r = Math.round(x);
  if (r - x === 0.5 && r % 2 !== 0) r -= 1;
  return r;
}

/**
 * Readings with their intervals in Postgres's binary COPY format for
 * `ingest.readings` (READING_COPY_COLUMNS): what the text path sends as
 * strings, without formatting and parsing each number. Values are the same
 * doubles (-0 is stored as 0, as its text "0" was). `add` fits
 * `visitIntervals`, so no object is made per reading; `finish` gives chunks
 * of about 1 MiB.
 */
export class ReadingCopyEncoder {
  private readonly chunks: Buffer[] = [];
  private buf = Buffer.allocUnsafe(CHUNK_BYTES);
  // DataView's setters compile to plain stores; Buffer's write* check their arguments on every call.
  private view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.length);
  private at = 0;
  private org = '';
  private orgBytes = Buffer.alloc(0);
  rows = 0;

  constructor() {
    this.buf.set(SIGNATURE, 0);
    this.view.setInt32(SIGNATURE.length, 0); // flags
    this.view.setInt32(SIGNATURE.length + 4, 0); // header extension length
    this.at = SIGNATURE.length + 8;
  }

  readonly add = (row: ReadingRow, prevReadAt: number | null, delta: number, reset: boolean, cum: number): void => {
    if (row.orgId !== this.org) {
      this.org = row.orgId;
      this.orgBytes = Buffer.from(row.orgId, 'utf8');
    }
    const org = this.orgBytes;
    this.room(FIXED_ROW_BYTES + org.length);
    const view = this.view;
    let at = this.at;
    view.setInt16(at, 10);
    view.setInt32(at + 2, org.length);
    at += 6;
    for (let i = 0; i < org.length; i++) this.buf[at + i] = org[i]; // a few bytes: cheaper than Buffer.copy
    at += org.length;
    at = int64(view, at, row.deviceId);
    view.setInt32(at, 2);
    view.setInt16(at + 4, row.channel);
    at += 6;
    at = int64(view, at, postgresMicros(row.readAt));
    at = float8(view, at, row.value);
    if (prevReadAt === null) {
      view.setInt32(at, -1);
      at += 4;
    } else {
      at = int64(view, at, postgresMicros(prevReadAt));
    }
    at = float8(view, at, delta);
    view.setInt32(at, 1);
    view.setUint8(at + 4, reset ? 1 : 0);
    at += 5;
    at = float8(view, at, cum);
    at = int64(view, at, row.seq);
    this.at = at;
    this.rows += 1;
  };

  finish(): Buffer[] {
    this.room(2);
    this.view.setInt16(this.at, -1); // trailer
    this.chunks.push(this.buf.subarray(0, this.at + 2));
    return this.chunks;
  }

  private room(bytes: number) {
    if (this.at + bytes <= this.buf.length) return;
    this.chunks.push(this.buf.subarray(0, this.at));
    this.buf = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, bytes));
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.length);
    this.at = 0;
  }
}

/** A length word of 8 and an int64 value, exact for every safe integer and every `postgresMicros`. */
function int64(view: DataView, at: number, n: number): number {
  const hi = Math.floor(n / TWO_32);
  view.setInt32(at, 8);
  view.setInt32(at + 4, hi);
  view.setUint32(at + 8, n - hi * TWO_32);
  return at + 12;
}

/** A length word of 8 and a float8 value; -0 as 0. */
function float8(view: DataView, at: number, n: number): number {
  view.setInt32(at, 8);
  view.setFloat64(at + 4, n + 0);
  return at + 12;
}

/** Planned readings in binary COPY format (see ReadingCopyEncoder). */
export function encodeReadingsCopy(rows: readonly PlannedReading[]): Buffer[] {
  const encoder = new ReadingCopyEncoder();
  for (const r of rows) encoder.add(r, r.prevReadAt, r.delta, r.reset, r.cum);
  return encoder.finish();
}
