import { describe, expect, it } from 'vitest';
import { consumptionPoints } from './consumption-points';
import { resolveConsumptionWindow } from './consumption-window';
import { dailyConsumption } from './daily-consumption';
import { dayDecimalPlaces } from './day-value';
import { addDecimals } from './decimal-sum';
import { formatDecimal } from './format';
import { intervalsFromReadings, type Interval } from './interval';
import { localDays } from './local-day';
import type { Reading } from './reading';
import { volumeFormat } from './volume-format';

/** Irregular readings: every `everyMinutes` (not a divisor of an hour), odd increments from a fixed seed. */
function irregular(fromIso: string, toIso: string, everyMinutes: number): Reading[] {
  const readings: Reading[] = [];
  let value = 1234.567;
  let seed = 7;
  for (let t = Date.parse(fromIso); t <= Date.parse(toIso); t += everyMinutes * 60_000) {
    readings.push({ readAt: t, value });
    seed = (seed * 48271) % 2147483647;
    value = Math.round((value + (seed % 997) / 1000) * 1000) / 1000;
  }
  return readings;
}

function windowOf(interval: string, from: string, to: string, zone: string) {
  const resolution = resolveConsumptionWindow(interval, from, to, zone);
  if (!resolution.ok) throw new Error(resolution.message);
  return resolution.window;
}

/** The history's value of each day: formatDecimal of dailyConsumption, "0" without data. */
function historyDays(intervals: Interval[], from: string, to: string, zone: string, write = formatDecimal, places = 3): Map<string, string> {
  const days = dailyConsumption(intervals, localDays(from, to, zone));
  return new Map(days.map((d) => [d.date, write(d.value, dayDecimalPlaces(d, places))]));
}

describe('consumptionPoints', () => {
  it.each([
    // [zone, interval, first day, last day (included), points per day]
    ['Europe/Madrid', 'PT1H', '2026-03-28', '2026-03-30', [24, 23, 24]],
    ['Europe/Madrid', 'PT1H', '2026-10-24', '2026-10-26', [24, 25, 24]],
    ['Europe/Madrid', 'PT15M', '2026-10-25', '2026-10-25', [100]],
    ['Asia/Kathmandu', 'PT1H', '2026-06-01', '2026-06-03', [24, 24, 24]],
    ['Asia/Kathmandu', 'PT15M', '2026-06-01', '2026-06-02', [96, 96]],
    ['Australia/Lord_Howe', 'PT1H', '2026-04-05', '2026-04-05', [25]],
  ])('in %s, %s points of each day from %s to %s sum to the history day', (zone, interval, first, last, perDay) => {
    const intervals = intervalsFromReadings(irregular(`${first}T00:00:00Z`, `${last}T23:59:00Z`, 37).map((r) => ({ ...r, readAt: r.readAt - 86_400_000 })));
    const days = localDays(first, last, zone);
    const window = windowOf(interval, first, days.at(-1)!.date === last ? nextDay(last) : last, zone);
    const points = consumptionPoints(intervals, window, formatDecimal, 3);
    const history = historyDays(intervals, first, last, zone);
    days.forEach((day, i) => {
      const inDay = points.filter((p) => p.start >= day.start && p.end <= day.end);
      expect(inDay, day.date).toHaveLength(perDay[i]);
      expect(
        addDecimals(
          inDay.map((p) => p.value),
          3,
        ),
        day.date,
      ).toBe(history.get(day.date));
      expect(inDay.every((p) => Number(p.value) >= 0)).toBe(true);
    });
  });

  it('sums in another unit too: gallons of an m³ register', () => {
    const zone = 'Asia/Kathmandu';
    const intervals = intervalsFromReadings(irregular('2026-05-31T12:00:00Z', '2026-06-02T12:00:00Z', 23));
    const gallons = volumeFormat('m³', 'gal');
    const points = consumptionPoints(intervals, windowOf('PT15M', '2026-06-01', '2026-06-02', zone), gallons.decimal, 3);
    const history = historyDays(intervals, '2026-06-01', '2026-06-01', zone, gallons.decimal);
    expect(
      addDecimals(
        points.map((p) => p.value),
        3,
      ),
    ).toBe(history.get('2026-06-01'));
  });

  it('gives P1D the history days and P1M their exact sum', () => {
    const zone = 'Europe/Madrid';
    const intervals = intervalsFromReadings(irregular('2026-02-20T00:00:00Z', '2026-04-10T00:00:00Z', 173));
    const daily = consumptionPoints(intervals, windowOf('P1D', '2026-03-01', '2026-04-01', zone), formatDecimal, 3);
    const history = historyDays(intervals, '2026-03-01', '2026-03-31', zone);
    expect(daily.map((p) => p.value)).toEqual([...history.values()]);
    const [march] = consumptionPoints(intervals, windowOf('P1M', '2026-03-01', '2026-04-01', zone), formatDecimal, 3);
    expect(march.value).toBe(addDecimals([...history.values()], 3));
    expect(march.quality).toBe('ACTUAL');
  });

  it('marks points outside the readings MISSING with "0", and those spread over more than 24 hours ESTIMATED', () => {
    const readings: Reading[] = [
      { readAt: Date.parse('2026-01-01T06:00:00Z'), value: 10 },
      { readAt: Date.parse('2026-01-01T07:00:00Z'), value: 11 },
      { readAt: Date.parse('2026-01-02T09:00:00Z'), value: 13.6 },
    ];
    const points = consumptionPoints(intervalsFromReadings(readings), windowOf('PT1H', '2026-01-01T05:00', '2026-01-01T08:00', 'UTC'), formatDecimal, 3);
    expect(points.map((p) => [p.value, p.quality])).toEqual([
      ['0', 'MISSING'],
      ['1.000', 'ACTUAL'],
      ['0.100', 'ESTIMATED'],
    ]);
    const months = consumptionPoints(intervalsFromReadings(readings), windowOf('P1M', '2025-12-01', '2026-02-01', 'UTC'), formatDecimal, 3);
    expect(months.map((p) => [p.value, p.quality])).toEqual([
      ['0', 'MISSING'],
      ['3.600', 'ESTIMATED'],
    ]);
  });
});

function nextDay(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
