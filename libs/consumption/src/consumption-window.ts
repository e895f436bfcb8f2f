import { addDays, isLocalDate, parseLocalDate, type LocalDate } from './local-date';
import { localDays, type LocalDay } from './local-day';
import { localDateTime } from './local-instant';
import { startOfLocalDay, type TimeZone } from './time-zone';

/** The point lengths of GET /meter/v1/consumption (ISO 8601 durations). */
export const CONSUMPTION_INTERVALS = ['PT15M', 'PT1H', 'P1D', 'P1M'] as const;
export type ConsumptionInterval = (typeof CONSUMPTION_INTERVALS)[number];

/** At most this many points per answer. */
export const MAX_CONSUMPTION_POINTS = 10_000;

/**
 * One point of a window: [start, end) in epoch ms, inside the local days
 * `days[firstDay..lastDay]`. A sub-day point lies in one day (firstDay ===
 * lastDay); a P1D or P1M point is those whole days.
 */
export interface PointSpan {
  start: number;
  end: number;
  firstDay: number;
  lastDay: number;
}

/** The local days a window touches, whole, and its points. */
export interface ConsumptionWindow {
  from: number;
  to: number;
  days: LocalDay[];
  points: PointSpan[];
}

export type WindowResolution = { ok: true; window: ConsumptionWindow } | { ok: false; field: 'from' | 'to' | 'interval'; message: string };

const SUB_DAY_MS: Partial<Record<ConsumptionInterval, number>> = { PT15M: 15 * 60_000, PT1H: 3600_000 };
const LOCAL_DATE_TIME = /^([0-9]{4}-[0-9]{2}-[0-9]{2})T([0-9]{2}):([0-9]{2})$/;
const DAY_MS = 86_400_000;

/**
 * The points of `interval` from `from` (included) to `to` (excluded), local
 * dates `YYYY-MM-DD` or local date-times `YYYY-MM-DDTHH:MM` in `zone`.
 *
 * Sub-day points tile each local day from its midnight, so a day is always a
 * whole number of points (23 or 25 hours on DST days; the last point of a day
 * is shorter when a zone shifts by 30 minutes) and a point never straddles
 * two days. A date-time must therefore name the start of a point of that day
 * (a wall time that a DST change skips names none); on an hour repeated by
 * DST it names the first. P1D takes dates (or T00:00), P1M first days of
 * months. At most MAX_CONSUMPTION_POINTS points.
 */
export function resolveConsumptionWindow(interval: string, fromText: string, toText: string, zone: TimeZone): WindowResolution {
  if (!(CONSUMPTION_INTERVALS as readonly string[]).includes(interval)) {
    return { ok: false, field: 'interval', message: `must be one of ${CONSUMPTION_INTERVALS.join(', ')}` };
  }
  const step = interval as ConsumptionInterval;
  const from = parseBound(fromText, step, 'from', zone);
  if (!from.ok) return from;
  const to = parseBound(toText, step, 'to', zone);
  if (!to.ok) return to;
  if (to.instant <= from.instant) return { ok: false, field: 'to', message: 'must be after from' };
  const tooMany = { ok: false as const, field: 'to' as const, message: `makes more than ${MAX_CONSUMPTION_POINTS} points of ${step}` };
  // A bound before counting: every point is at least 15 minutes long (a day at least 23 hours, a month 28 days).
  const shortest = SUB_DAY_MS[step] ?? (step === 'P1D' ? DAY_MS - 3600_000 : 28 * DAY_MS - 3600_000);
  if ((to.instant - from.instant) / shortest > MAX_CONSUMPTION_POINTS + 2) return tooMany;

  const lastDate = to.time === '00:00' ? addDays(to.date, -1) : to.date;
  const days = localDays(from.date, lastDate, zone);
  const points = step === 'P1M' ? monthPoints(days) : step === 'P1D' ? days.map((d, i) => ({ start: d.start, end: d.end, firstDay: i, lastDay: i })) : [];
  const stepMs = SUB_DAY_MS[step];
  if (stepMs !== undefined) {
    days.forEach((day, i) => {
      for (const span of daySpans(day, stepMs)) {
        if (span.start >= from.instant && span.end <= to.instant) points.push({ ...span, firstDay: i, lastDay: i });
      }
    });
  }
  if (points.length > MAX_CONSUMPTION_POINTS) return tooMany;
  return { ok: true, window: { from: from.instant, to: to.instant, days, points } };
}

/** [start, end) of each `stepMs` from the day's start, the last one cut at the day's end. */
export function daySpans(day: LocalDay, stepMs: number): { start: number; end: number }[] {
  const spans = [];
  for (let start = day.start; start < day.end; start += stepMs) spans.push({ start, end: Math.min(start + stepMs, day.end) });
  return spans;
}

type Bound = { ok: true; instant: number; date: LocalDate; time: string } | { ok: false; field: 'from' | 'to'; message: string };

function parseBound(text: string, step: ConsumptionInterval, field: 'from' | 'to', zone: TimeZone): Bound {
  const match = LOCAL_DATE_TIME.exec(text);
  const date = match ? match[1] : text;
  const time = match ? `${match[2]}:${match[3]}` : '00:00';
  if (!isLocalDate(date) || (match && (Number(match[2]) > 23 || Number(match[3]) > 59))) {
    return { ok: false, field, message: 'must be a local date YYYY-MM-DD or date-time YYYY-MM-DDTHH:MM' };
  }
  const { year } = parseLocalDate(date);
  if (year < 1970 || year > 9999) return { ok: false, field, message: 'must be a date from 1970 on' };
  if (step === 'P1M' && (date.slice(8) !== '01' || time !== '00:00')) return { ok: false, field, message: 'must be the first day of a month with P1M' };
  if (step === 'P1D' && time !== '00:00') return { ok: false, field, message: 'must be a date (or THH:MM 00:00) with P1D' };
  const dayStart = startOfLocalDay(date, zone);
  if (time === '00:00') return { ok: true, instant: dayStart, date, time };
  const day = { date, start: dayStart, end: startOfLocalDay(addDays(date, 1), zone) };
  const span = daySpans(day, SUB_DAY_MS[step]!).find((s) => localDateTime(s.start, zone).slice(11, 16) === time);
  if (!span) return { ok: false, field, message: `must be the start of a ${step} point of ${date} in ${zone} (points start at the day's midnight)` };
  return { ok: true, instant: span.start, date, time };
}

/** Whole months of consecutive days: one point per month. */
function monthPoints(days: readonly LocalDay[]): PointSpan[] {
  const points: PointSpan[] = [];
  days.forEach((day, i) => {
    const last = points.at(-1);
    if (last && days[last.firstDay].date.slice(0, 7) === day.date.slice(0, 7)) {
      last.end = day.end;
      last.lastDay = i;
    } else points.push({ start: day.start, end: day.end, firstDay: i, lastDay: i });
  });
  return points;
}
