import { formatLocalDate, LocalDate, parseLocalDate, wallClockAsUtc } from './local-date';

/** An IANA time zone name such as `Europe/Madrid`, `Asia/Kathmandu` or `UTC`. */
export type TimeZone = string;

/**
 * Letters first, then letters, digits, `_`, `+`, `-`, in `/`-separated parts.
 * Intl alone would do, but newer engines (ECMA-402 2024+) also accept offset
 * strings such as `+05:30`, which are not IANA names and have no DST rules.
 */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

// One formatter per zone: building one costs far more than using it.
// Keyed by the lower-cased name (Intl matches names case-insensitively), so
// the cache is bounded by the set of real zone names whatever callers send.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: TimeZone): Intl.DateTimeFormat {
  const key = zone.toLowerCase();
  let formatter = formatters.get(key);
  if (!formatter) {
    if (!ZONE_NAME.test(zone)) throw new RangeError(`not an IANA time zone: ${JSON.stringify(zone)}`);
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      // h23, not hour12:false, which prints midnight as "24" on some engines.
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

/** True for a zone name Intl knows (`UTC` included, any letter case); false for '', offsets and garbage. */
export function isValidTimeZone(name: string): boolean {
  if (typeof name !== 'string' || !ZONE_NAME.test(name)) return false;
  try {
    formatterFor(name);
    return true;
  } catch {
    return false;
  }
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

// `format` is about 4x faster than `formatToParts`; en-US with h23 prints
// "3/10/2026, 14:05:09". Anything else (another ICU, era years) takes the slow path.
const EN_US_WALL_CLOCK = /^(\d{1,2})\/(\d{1,2})\/(\d{4,}), (\d{2}):(\d{2}):(\d{2})$/;

function wallClockAt(epochMs: number, zone: TimeZone): WallClock {
  if (!Number.isFinite(epochMs)) throw new RangeError(`not an instant: ${epochMs}`);
  const formatter = formatterFor(zone);
  const match = EN_US_WALL_CLOCK.exec(formatter.format(epochMs));
  if (match) {
    const [, month, day, year, hour, minute, second] = match.map(Number);
    return { year, month, day, hour, minute, second };
  }
  const fields: Record<string, number> = {};
  for (const part of formatter.formatToParts(epochMs)) {
    if (part.type !== 'literal') fields[part.type] = Number(part.value);
  }
  return {
    year: fields.year,
    month: fields.month,
    day: fields.day,
    hour: fields.hour,
    minute: fields.minute,
    second: fields.second,
  };
}

/** Offset of the zone from UTC at an instant, in ms (Asia/Kathmandu: +20_700_000). */
export function offsetAt(epochMs: number, zone: TimeZone): number {
  const wall = wallClockAt(epochMs, zone);
  const wholeSecond = Math.floor(epochMs / 1000) * 1000;
  return wallClockAsUtc(wall.year, wall.month, wall.day, wall.hour, wall.minute, wall.second) - wholeSecond;
}

/** The local calendar date of an instant in a zone. */
export function localDateOf(epochMs: number, zone: TimeZone): LocalDate {
  const { year, month, day } = wallClockAt(epochMs, zone);
  return formatLocalDate({ year, month, day });
}

const DAY_MS = 86_400_000;

/**
 * The first instant whose local date is `date`: local midnight, or, where a
 * DST jump skips midnight (America/Havana, America/Santiago), the instant of
 * the jump. Where midnight happens twice, the earlier one.
 */
export function startOfLocalDay(date: LocalDate, zone: TimeZone): number {
  // Day starts never change while the process runs (tzdata is fixed), and
  // every history request asks for the same few hundred of them.
  const key = `${zone.toLowerCase()} ${date}`;
  let start = dayStarts.get(key);
  if (start === undefined) {
    start = computeStartOfLocalDay(date, zone);
    if (dayStarts.size >= DAY_STARTS_CACHED) dayStarts.clear();
    dayStarts.set(key, start);
  }
  return start;
}

const DAY_STARTS_CACHED = 20_000;
const dayStarts = new Map<string, number>();

function computeStartOfLocalDay(date: LocalDate, zone: TimeZone): number {
  const { year, month, day } = parseLocalDate(date);
  const wallMidnight = wallClockAsUtc(year, month, day);
  // Offsets a day either side bracket every transition near this midnight
  // (real offsets stay within ±15 h); zones never change twice in two days.
  const before = offsetAt(wallMidnight - DAY_MS, zone);
  const after = offsetAt(wallMidnight + DAY_MS, zone);
  const candidates = [wallMidnight - before, wallMidnight - after]
    .filter((instant, i) => offsetAt(instant, zone) === (i === 0 ? before : after))
    .sort((a, b) => a - b);
  if (candidates.length > 0) return candidates[0];
  return firstInstantOnOrAfter(date, wallMidnight - after, wallMidnight - before, zone);
}

/**
 * Midnight falls in a DST gap: the day begins at the jump, found by bisection
 * between an instant still on the day before (`low`) and one already on `date` (`high`).
 */
function firstInstantOnOrAfter(date: LocalDate, low: number, high: number, zone: TimeZone): number {
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (localDateOf(middle, zone) >= date) high = middle;
    else low = middle;
  }
  return high;
}
