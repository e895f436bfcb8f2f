import { unpackDay } from './day-pack';
import { epochMsAt } from './timestamp-bytes';
import type { ReadingDay } from './reading-day';

/**
 * The compact store's fetch layer: SQL fragments that load, for a channel
 * `c.channel` of a device `d` (an `ingest.devices` row) of the outer query,
 * only the day rows of `ingest.reading_days` a question needs, each an index
 * probe or range of its primary key (org_id, device_id, channel, day), and
 * hand them on packed in one `bytea` per channel (one result row per
 * channel, as the row store's queries answer). `readingDaysOf` decodes it.
 *
 * A row travels as a frame of the types' send formats: `int4` day (days
 * since 1970-01-01), `bool` whether it has a reading before it, that
 * reading's `timestamptz` (0 without), `float8` prev_value and cum_before,
 * `int4` length of the packed readings, then the readings (day-pack.ts).
 */
const FRAME_HEADER_BYTES = 4 + 1 + 8 + 8 + 8 + 4;

const frameOf = (r: string) =>
  `int4send(${r}.day - DATE '1970-01-01') || boolsend(${r}.prev_at IS NOT NULL) || coalesce(timestamptz_send(${r}.prev_at), int8send(0))
   || float8send(${r}.prev_value) || float8send(${r}.cum_before) || int4send(length(${r}.readings)) || ${r}.readings`;

const SAME_CHANNEL = 'r.org_id = d.org_id AND r.device_id = d.device_id AND r.channel = c.channel';

/** A day number (days since 1970-01-01) as SQL: an int parameter or expression. */
const dayAt = (day: string) => `(DATE '1970-01-01' + (${day})::int)`;

/**
 * The rows of the days [first, last] (SQL day numbers), and with `before`
 * the channel's last row before `first`, with `after` its first `after`
 * rows after `last`. Around an instant t (`first = last = day(t)`, before,
 * after 1) that is the reading at or before t and the one after it, however
 * far apart: two probes whatever the window, the last two rows up to day(t)
 * (its own and the one before, or two before when day(t) has none) and the
 * first after it.
 */
export interface DaySpan {
  first: string;
  last: string;
  before?: boolean;
  after?: 1 | 2;
  /** only the days that read a register reset (`has_reset`, a partial index) */
  resets?: boolean;
}

/** The instant a query parameter names: as `new Date(ms).toISOString()` does, whole milliseconds (a NaN throws). */
export function instantOf(ms: number): number {
  const at = new Date(ms).getTime();
  if (Number.isNaN(at)) throw new RangeError('Invalid time value');
  return at;
}

/** The rows around an instant of the day `day` (SQL): the reading at or before it and the first after it. */
export const aroundDay = (day: string): DaySpan => ({ first: day, last: day, before: true, after: 1 });

function spanRows(span: DaySpan): string[] {
  const rows = [
    `(SELECT r.day, ${frameOf('r')} AS frame FROM ingest.reading_days r WHERE ${SAME_CHANNEL}${span.resets ? ' AND r.has_reset' : ''}
      AND r.day BETWEEN ${dayAt(span.first)} AND ${dayAt(span.last)})`,
  ];
  // One day and the row before it: one backward probe of two rows instead of a probe of the day and one before it.
  if (span.before && span.first === span.last)
    rows.splice(
      0,
      1,
      `(SELECT r.day, ${frameOf('r')} AS frame FROM ingest.reading_days r WHERE ${SAME_CHANNEL} AND r.day <= ${dayAt(span.first)} ORDER BY r.day DESC LIMIT 2)`,
    );
  else if (span.before)
    rows.unshift(
      `(SELECT r.day, ${frameOf('r')} AS frame FROM ingest.reading_days r WHERE ${SAME_CHANNEL} AND r.day < ${dayAt(span.first)} ORDER BY r.day DESC LIMIT 1)`,
    );
  if (span.after)
    rows.push(
      `(SELECT r.day, ${frameOf('r')} AS frame FROM ingest.reading_days r WHERE ${SAME_CHANNEL} AND r.day > ${dayAt(span.last)} ORDER BY r.day LIMIT ${span.after})`,
    );
  return rows;
}

/**
 * The channel's day rows the spans ask for, ascending by day, as one `bytea`
 * (NULL when there are none). A row two spans share comes twice; the
 * decoder keeps it once. Each span is a subquery with its own bounds (and
 * `LIMIT`), so each stays an index probe or range of the channel.
 */
export const DAY_ROWS = (spans: readonly DaySpan[]) => `
  (SELECT string_agg(f.frame, ''::bytea ORDER BY f.day) FROM (${spans.flatMap(spanRows).join('\n    UNION ALL ')}) f)`;

/** The channel's last day row (a backward index probe), as `DAY_ROWS` packs it. */
export const LAST_DAY_ROW = `
  (SELECT ${frameOf('r')} FROM ingest.reading_days r WHERE ${SAME_CHANNEL} ORDER BY r.day DESC LIMIT 1)`;

/** The day rows of a `DAY_ROWS` (or `LAST_DAY_ROW`) value, ascending by day, each once. */
export function readingDaysOf(packed: Buffer | null): ReadingDay[] {
  const days: ReadingDay[] = [];
  if (packed === null) return days;
  for (let at = 0; at < packed.length;) {
    if (packed.length - at < FRAME_HEADER_BYTES) throw new RangeError(`day rows: a frame header at ${at} is cut short`);
    const day = packed.readInt32BE(at);
    const length = packed.readInt32BE(at + 29);
    const end = at + FRAME_HEADER_BYTES + length;
    if (end > packed.length) throw new RangeError(`day rows: the readings of day ${day} are cut short`);
    const previous = days[days.length - 1];
    if (previous !== undefined && day < previous.day) throw new RangeError(`day rows: day ${day} comes after day ${previous.day}`);
    if (previous?.day !== day) {
      days.push({
        day,
        readings: unpackDay(packed.subarray(at + FRAME_HEADER_BYTES, end)),
        prevAt: packed[at + 4] !== 0 ? epochMsAt(packed, at + 5) : null,
        prevValue: packed.readDoubleBE(at + 13),
        cumBefore: packed.readDoubleBE(at + 21),
      });
    }
    at = end;
  }
  return days;
}
