import { localDateOf, offsetAt } from '@meter/consumption';

/**
 * Relative water use per local hour of a household: low at night (none from
 * 02:00 to 04:00, so a sound installation has still hours and raises no
 * LEAK), a peak in the morning and a longer one in the evening. Divided by
 * its sum, so a day's use is `dailyUse`.
 */
const HOURLY_PROFILE = [0.25, 0.15, 0, 0, 0.15, 0.4, 1.4, 2.3, 1.9, 1.2, 0.9, 0.9, 1.1, 1.0, 0.8, 0.7, 0.8, 1.1, 1.6, 1.9, 1.8, 1.4, 1.0, 0.6];
const PROFILE_SUM = HOURLY_PROFILE.reduce((a, b) => a + b, 0);

/**
 * What a meter may do besides household use, so its alerts can be seen
 * (docs/alerts-and-webhooks.md): a continuous leak over the last 36 hours
 * (LEAK), a burst of 2 units an hour in the last hour (BURST, with the burst
 * threshold its registration sets), or silence for the last 3 days
 * (NO_COMMUNICATION).
 */
export type MeterAnomaly = 'leak' | 'burst' | 'silent';

/** A leak's flow, per hour: enough that no hour is still. */
export const LEAK_PER_HOUR = 0.012;
/** A burst's flow, per hour, and the threshold a bursting meter is registered with. */
export const BURST_PER_HOUR = 2;
export const BURST_THRESHOLD_PER_HOUR = 1;
const LEAK_HOURS = 36;
const SILENT_MS = 72 * 3600_000;

export interface SimulatedMeter {
  deviceId: number;
  anomaly?: MeterAnomaly;
  zone: string;
  /** register value at the first reading */
  startValue: number;
  /** average m³ per day */
  dailyUse: number;
  seed: number;
}

/** A small deterministic PRNG (mulberry32): the same seed gives the same meter. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function simulatedMeter(deviceId: number, zone: string, seed: number, anomaly?: MeterAnomaly): SimulatedMeter {
  const random = seededRandom(seed * 7919 + deviceId);
  return {
    deviceId,
    zone,
    startValue: Math.round(random() * 5000 * 1000) / 1000,
    dailyUse: 0.15 + random() * 0.5,
    seed: seed * 31 + deviceId,
    ...(anomaly ? { anomaly } : {}),
  };
}

/** The last reading a meter sends in a span ending at `to`: a silent meter stopped 3 days before. */
export function lastReadingAt(meter: Pick<SimulatedMeter, 'anomaly'>, from: number, to: number, intervalMs: number): number {
  if (meter.anomaly !== 'silent') return to;
  return Math.max(from, from + Math.floor((to - SILENT_MS - from) / intervalMs) * intervalMs);
}

/**
 * Cumulative readings every `intervalMs` from `from` to `to` (epoch ms,
 * both aligned by the caller): the use of each step follows the local
 * hour's profile, weekends are a little higher, with noise. Values are
 * rounded to litres (3 decimals) and never decrease.
 */
export function simulatedReadings(meter: SimulatedMeter, from: number, to: number, intervalMs: number): { readAt: number; value: number }[] {
  const random = seededRandom(meter.seed);
  const readings: { readAt: number; value: number }[] = [];
  let value = meter.startValue;
  const last = lastReadingAt(meter, from, to, intervalMs);
  for (let t = from; t <= last; t += intervalMs) {
    if (t > from) {
      const local = t - intervalMs / 2 + offsetAt(t - intervalMs / 2, meter.zone);
      const hour = new Date(local).getUTCHours();
      const weekday = new Date(`${localDateOf(t, meter.zone)}T00:00:00Z`).getUTCDay();
      const weekend = weekday === 0 || weekday === 6 ? 1.15 : 1;
      const share = (HOURLY_PROFILE[hour] / PROFILE_SUM) * (intervalMs / 3600_000);
      value += meter.dailyUse * share * weekend * (0.6 + random() * 0.8);
      const hours = intervalMs / 3600_000;
      if (meter.anomaly === 'leak' && t > to - LEAK_HOURS * 3600_000) value += LEAK_PER_HOUR * hours;
      if (meter.anomaly === 'burst' && t > to - 3600_000) value += BURST_PER_HOUR * hours;
    }
    readings.push({ readAt: t, value: Math.round(value * 1000) / 1000 });
  }
  return readings;
}
