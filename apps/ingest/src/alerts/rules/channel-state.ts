/**
 * What the reading rules remember of one channel between batches, so each
 * new reading is judged without reading the channel's history again. Times
 * are epoch ms; `tail` holds `[readAt, cum, readAt, cum, ...]` of the
 * readings of the last hour and the one just before it (the start of the
 * hour ending at the latest reading).
 */
export interface ChannelAlertState {
  /** the latest reading folded in; null before the first */
  latestAt: number | null;
  firstAt: number | null;
  /** start of the current run of readings at most an hour apart */
  runSince: number | null;
  /** the latest reading that ended a still hour */
  lastStillAt: number | null;
  /** the latest reading that ended an interval with consumption */
  lastFlowAt: number | null;
  tail: number[];
}

/** One stored reading with the interval that ends at it (docs/read-model.md). */
export interface JudgedReading {
  readAt: number;
  /** consumption of the interval ending here; 0 on a reset */
  delta: number;
  /** running total of the channel up to here */
  cum: number;
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
/** Collectors' clocks jitter: readings up to a minute more than an hour apart still count as hourly. */
export const CLOCK_TOLERANCE_MS = 60_000;

export const emptyChannelState = (): ChannelAlertState => ({ latestAt: null, firstAt: null, runSince: null, lastStillAt: null, lastFlowAt: null, tail: [] });

/** The hour ending at a reading, as far as the readings measure it. */
export interface HourEnding {
  /** consumption from the reading at or just before the hour's start to this one; undefined when readings were more than an hour apart */
  consumption: number | undefined;
}

/**
 * Folds one reading (later than `state.latestAt`) into the state and says
 * what the hour ending at it held. The hour's start is the reading at, or
 * just before, one hour earlier (within the clock tolerance); it is measured
 * only when every reading since then was at most an hour after the one before.
 */
export function foldReading(state: ChannelAlertState, reading: JudgedReading, leakThresholdPerHour: number): { state: ChannelAlertState; hour: HourEnding } {
  const next = { ...state, tail: [...state.tail] };
  return { state: next, hour: foldInto(next, reading, leakThresholdPerHour) };
}

/**
 * `foldReading` in place, for a state the caller owns (evaluateReadings
 * copies it once per batch rather than once per reading: this runs for
 * every reading ingest stores).
 */
export function foldInto(state: ChannelAlertState, reading: JudgedReading, leakThresholdPerHour: number): HourEnding {
  const { readAt, delta, cum } = reading;
  const hourly = state.latestAt !== null && readAt - state.latestAt <= HOUR_MS + CLOCK_TOLERANCE_MS;
  const runSince = hourly ? state.runSince! : readAt;
  const hourStart = readAt - HOUR_MS + CLOCK_TOLERANCE_MS;
  const tail = state.tail;
  tail.push(readAt, cum);
  // Keep one reading at or before the hour's start: drop older ones.
  let from = 0;
  while (from + 2 < tail.length && tail[from + 2] <= hourStart) from += 2;
  if (from > 0) tail.splice(0, from);
  const baseAt = tail[0];
  const consumption = hourly && baseAt <= hourStart && baseAt >= runSince ? cum - tail[1] : undefined;
  state.latestAt = readAt;
  state.firstAt ??= readAt;
  state.runSince = runSince;
  if (consumption !== undefined && consumption <= leakThresholdPerHour) state.lastStillAt = readAt;
  if (delta > 0) state.lastFlowAt = readAt;
  return { consumption };
}
