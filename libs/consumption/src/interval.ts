import { Reading } from './reading';

/**
 * What happened between two consecutive readings of one channel:
 * `delta` is consumed over [start, end), spread evenly.
 */
export interface Interval {
  /** epoch ms of the earlier reading */
  start: number;
  /** epoch ms of the later reading */
  end: number;
  /** consumption in the interval; 0 when `reset` */
  delta: number;
  /**
   * The register went down (meter replaced, rolled over or reset): the
   * interval counts 0 and the later value is the new base.
   */
  reset: boolean;
}

/**
 * Intervals of ONE channel, oldest first, contiguous from the first reading
 * to the last. Input may be in any order. Readings with the same `readAt`:
 * the last one in the input wins, as a correction replaces the earlier value
 * on the bus; pass readings in arrival order when that matters.
 */
export function intervalsFromReadings(readings: readonly Reading[]): Interval[] {
  const latestByTime = new Map<number, number>();
  for (const { readAt, value } of readings) {
    if (!Number.isFinite(readAt) || !Number.isFinite(value)) {
      throw new RangeError(`reading needs a finite readAt and value: ${readAt}, ${value}`);
    }
    latestByTime.set(readAt, value);
  }
  const times = [...latestByTime.keys()].sort((a, b) => a - b);
  const intervals: Interval[] = [];
  for (let i = 1; i < times.length; i++) {
    const before = latestByTime.get(times[i - 1]) as number;
    const after = latestByTime.get(times[i]) as number;
    const reset = after < before;
    intervals.push({ start: times[i - 1], end: times[i], delta: reset ? 0 : after - before, reset });
  }
  return intervals;
}
