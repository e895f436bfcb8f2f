/**
 * Simulated water meters for the demo: hourly cumulative register values
 * (meter index, m³) with a household's daily rhythm, deterministic for a
 * seed so a demo run can be reproduced. Pure: no clock, no I/O.
 */
export interface SimulatedMeter {
  deviceId: number;
  name: string;
  timeZone: string;
  /** Average consumption per day, m³. */
  dailyAverage: number;
  pricePerUnit: number;
}

export interface ReadingMessage {
  read_at: string;
  value: string;
  channel: number;
}

export const DEMO_METERS: SimulatedMeter[] = [
  { deviceId: 1001, name: 'Flat 1A kitchen', timeZone: 'Europe/Paris', dailyAverage: 0.32, pricePerUnit: 4.2 },
  { deviceId: 1002, name: 'Flat 1B bathroom', timeZone: 'Europe/Paris', dailyAverage: 0.21, pricePerUnit: 4.2 },
  { deviceId: 1003, name: 'Garden tap', timeZone: 'Asia/Kolkata', dailyAverage: 0.55, pricePerUnit: 3.1 },
];

/** Share of a day's water drawn in each local hour: night low, morning and evening peaks; sums to 1. */
const HOURLY_PROFILE = (() => {
  const weights = [1, 0.5, 0.3, 0.3, 0.4, 1, 4, 7, 6, 4, 3, 3, 4, 3, 2.5, 2.5, 3, 4, 6, 7, 6, 4, 3, 2];
  const total = weights.reduce((a, b) => a + b, 0);
  return weights.map((w) => w / total);
})();

const HOUR = 3600 * 1000;

/** mulberry32: a small seeded generator, enough for believable noise. */
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

/**
 * Hourly readings of one meter from `startMs` (rounded down to the hour) to
 * `endMs`, the register starting at `initialIndex`. Never decreasing; the
 * local hour of the meter's time zone shapes the profile.
 */
export function hourlyReadings(meter: SimulatedMeter, startMs: number, endMs: number, initialIndex = 100): ReadingMessage[] {
  const random = seededRandom(meter.deviceId);
  const hourOf = new Intl.DateTimeFormat('en-GB', { timeZone: meter.timeZone, hour: '2-digit', hourCycle: 'h23' });
  const readings: ReadingMessage[] = [];
  let index = initialIndex;
  for (let t = Math.floor(startMs / HOUR) * HOUR; t <= endMs; t += HOUR) {
    if (readings.length > 0) {
      const localHour = Number(hourOf.format(new Date(t - HOUR)));
      const drawn = meter.dailyAverage * HOURLY_PROFILE[localHour] * (0.5 + random());
      index += drawn;
    }
    readings.push({ read_at: new Date(t).toISOString(), value: index.toFixed(3), channel: 1 });
  }
  return readings;
}

/** Splits readings into messages of at most `size` (the bus accepts a JSON array per message). */
export function batches<T>(items: T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}
