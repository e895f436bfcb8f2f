import type { DayReading } from './day-pack';

/**
 * One channel's day row of the compact store (`ingest.reading_days`),
 * unpacked, and the intervals it implies. Each reading's interval runs from
 * the reading before it (the row's `prevAt` for its first), a decrease is a
 * register reset (delta 0), and the running total adds the deltas in order
 * from the row's `cumBefore`: what `ingest.readings` stores per reading.
 */

export const DAY_MS = 86_400_000;

export interface ReadingDay {
  /** days since 1970-01-01 (UTC) */
  day: number;
  /** ascending by `us` */
  readings: DayReading[];
  /** the channel's reading before this day (epoch ms; null: none), its value and the running total there */
  prevAt: number | null;
  prevValue: number;
  cumBefore: number;
}

const DAY_US = 86_400_000_000;

/**
 * The instant (epoch ms) of a packed reading of `day`: the exact microseconds
 * divided by 1000, rounded once, as `(extract(epoch from t) * 1000)::float8`
 * and `epochMsAt`; beyond ±2^53 µs of 1970, whole ms plus the µs rest.
 */
export function readAtOf(day: number, us: number): number {
  const total = day * DAY_US + us;
  if (Number.isSafeInteger(total)) return total / 1000;
  const exact = BigInt(day) * BigInt(DAY_US) + BigInt(us);
  return Number(exact / 1000n) + Number(exact % 1000n) / 1000;
}
/** The UTC day (days since 1970-01-01) of an instant. */
export const dayOf = (readAt: number) => Math.floor(readAt / DAY_MS);

/** A reading with the interval that ends at it, as `walkDay` hands it on. */
export type DayVisitor = (reading: DayReading, readAt: number, prevAt: number | null, delta: number, reset: boolean, cum: number) => void;

/** Walks a day row's readings with their intervals; answers the last reading and the running total at its end. */
export function walkDay(day: ReadingDay, visit?: DayVisitor): { at: number | null; value: number; cum: number } {
  let prevAt = day.prevAt;
  let prevValue = day.prevValue;
  let cum = day.cumBefore;
  for (const reading of day.readings) {
    const at = readAtOf(day.day, reading.us);
    const reset = prevAt !== null && reading.value < prevValue;
    const delta = prevAt !== null && !reset ? reading.value - prevValue : 0;
    cum += delta;
    visit?.(reading, at, prevAt, delta, reset, cum);
    prevAt = at;
    prevValue = reading.value;
  }
  return { at: prevAt, value: prevValue, cum };
}

/** Whether a register reset is read in the day row (a reading lower than the one before it): its `has_reset` flag. */
export function dayHasReset(day: ReadingDay): boolean {
  let reset = false;
  walkDay(day, (_reading, _at, _prevAt, _delta, isReset) => {
    reset ||= isReset;
  });
  return reset;
}
