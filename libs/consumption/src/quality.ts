/**
 * How far a day's value can be trusted (docs/consumption.md, "Quality"):
 * - `MISSING`: no reading covers the day (its value is 0 and it carries NO_DATA);
 * - `ESTIMATED`: part of the day lies inside an interval between readings longer
 *   than 24 hours, so part of its value is spread over a gap, not measured;
 * - `ACTUAL`: every covered part of the day lies between readings at most 24 h apart.
 */
export type Quality = 'ACTUAL' | 'ESTIMATED' | 'MISSING';

/** Intervals longer than this spread consumption over a gap: their days are ESTIMATED. */
export const ESTIMATED_INTERVAL_MS = 24 * 3600 * 1000;
