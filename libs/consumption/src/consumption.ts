import { Interval } from './interval';

/**
 * Consumption inside [from, to): each interval contributes its delta times
 * the fraction of its length that overlaps. Time outside every interval
 * (before the first or after the last reading) contributes nothing.
 */
export function consumptionBetween(intervals: readonly Interval[], from: number, to: number): number {
  let total = 0;
  for (const interval of intervals) total += overlapShare(interval, from, to);
  return total;
}

/** The part of one interval's delta that falls inside [from, to). */
export function overlapShare(interval: Interval, from: number, to: number): number {
  const overlap = Math.min(interval.end, to) - Math.max(interval.start, from);
  if (overlap <= 0 || interval.delta === 0) return 0;
  // Whole interval inside: the exact delta, with no float noise from x*n/n.
  if (overlap === interval.end - interval.start) return interval.delta;
  return (interval.delta * overlap) / (interval.end - interval.start);
}
