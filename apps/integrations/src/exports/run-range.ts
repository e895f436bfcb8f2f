import { addDays, datesBetween, localDateOf, offsetAt, startOfLocalDay, wallClockAsUtc, type LocalDate } from '@meter/consumption';
import { MAX_RUN_DAYS, RUN_RANGE_INPUT, runRangeBody } from '@meter/contracts';
import { readInput, type FieldError } from '@meter/http';

export interface RunRange {
  from: LocalDate;
  to: LocalDate;
}

/**
 * The body of POST /integrations/{id}/runs: `{from, to}` local dates of the
 * integration's zone (runRangeBody), both included, `from <= to`, at most
 * 366 days, not after today; no body (or `{}`) is yesterday.
 */
export function readRunRange(body: unknown, now: number, zone: string): { ok: true; value: RunRange } | { ok: false; errors: FieldError[] } {
  const today = localDateOf(now, zone);
  const yesterday = addDays(today, -1);
  if (body === undefined || body === null) return { ok: true, value: { from: yesterday, to: yesterday } };
  const read = readInput(runRangeBody, body, RUN_RANGE_INPUT);
  if (!read.ok) return read;
  const { from, to } = read.value as { from?: LocalDate; to?: LocalDate };
  const errors: FieldError[] = [];
  if (from === undefined && to === undefined) return { ok: true, value: { from: yesterday, to: yesterday } };
  if (from === undefined || to === undefined) {
    const missing = from === undefined ? 'from' : 'to';
    return { ok: false, errors: [{ field: missing, message: `is required with ${missing === 'from' ? 'to' : 'from'}` }] };
  }
  if (from > to) errors.push({ field: 'from', message: `must not be after to (${to})` });
  else if (datesBetween(from, to).length > MAX_RUN_DAYS) errors.push({ field: 'to', message: `must be at most ${MAX_RUN_DAYS} days from from, both included` });
  if (to > today) errors.push({ field: 'to', message: `must not be after today (${today} in ${zone})` });
  if (errors.length) return { ok: false, errors };
  return { ok: true, value: { from, to } };
}

/**
 * The next instant after `after` at which the local clock of `zone` shows
 * `at` (HH:MM). On a day whose DST change skips that time, the first instant
 * after the gap.
 */
export function nextScheduledInstant(at: string, zone: string, after: number): number {
  const [hour, minute] = at.split(':').map(Number);
  let date = localDateOf(after, zone);
  for (;;) {
    const instant = localTimeOn(date, hour, minute, zone);
    if (instant > after) return instant;
    date = addDays(date, 1);
  }
}

function localTimeOn(date: LocalDate, hour: number, minute: number, zone: string): number {
  const [year, month, day] = date.split('-').map(Number);
  const wall = wallClockAsUtc(year, month, day, hour, minute);
  const guess = wall - offsetAt(wall, zone);
  const instant = wall - offsetAt(guess, zone);
  return Math.max(instant, startOfLocalDay(date, zone));
}
