import { CLEAR, isoSecond, KEEP, raise, type Verdict } from './verdict';

/** Intervals shorter than this are not judged: a short spike is not a burst. */
export const BURST_MIN_INTERVAL_MS = 30 * 60_000;

/**
 * BURST: an interval between consecutive readings of at least 30 minutes
 * whose average flow exceeds the threshold (per hour, in the device's unit);
 * the next such interval at or below it clears it. Off (every interval is
 * below it) while the threshold is null.
 */
export function burstVerdict(prevReadAt: number | null, readAt: number, delta: number, thresholdPerHour: number | null): Verdict {
  if (prevReadAt === null || readAt - prevReadAt < BURST_MIN_INTERVAL_MS) return KEEP;
  const perHour = (delta * 3_600_000) / (readAt - prevReadAt);
  if (thresholdPerHour === null || perHour <= thresholdPerHour) return CLEAR;
  return raise(
    `Average flow of ${round(perHour)} per hour from ${isoSecond(prevReadAt)} to ${isoSecond(readAt)}, above the burst threshold of ${thresholdPerHour}.`,
  );
}

const round = (n: number) => Math.round(n * 1000) / 1000;
