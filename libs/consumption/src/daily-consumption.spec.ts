import { describe, expect, it } from 'vitest';
import { AlertCode } from './alert';
import { dailyConsumption, DailyConsumption, sumDays } from './daily-consumption';
import { intervalsFromReadings } from './interval';
import { localDays } from './local-day';
import { Reading } from './reading';

const r = (iso: string, value: number): Reading => ({ readAt: Date.parse(iso), value });

/** [date, value, alert codes] per day, to keep the tables readable. */
function daily(readings: Reading[], from: string, to: string, zone: string): [string, number, AlertCode[]][] {
  const days = dailyConsumption(intervalsFromReadings(readings), localDays(from, to, zone));
  return days.map((d) => [d.date, d.value, d.alerts.map((a) => a.code)]);
}

describe('dailyConsumption', () => {
  it('spreads a reading gap over the days it spans; days outside the readings are NO_DATA', () => {
    // 96 units over 96 h: 1 per hour.
    const readings = [r('2026-03-01T12:00:00Z', 100), r('2026-03-05T12:00:00Z', 196)];
    expect(daily(readings, '2026-02-28', '2026-03-06', 'UTC')).toEqual([
      ['2026-02-28', 0, ['NO_DATA']],
      ['2026-03-01', 12, []],
      ['2026-03-02', 24, []],
      ['2026-03-03', 24, []],
      ['2026-03-04', 24, []],
      ['2026-03-05', 12, []],
      ['2026-03-06', 0, ['NO_DATA']],
    ]);
  });

  it.each<[string, Reading[], string, string, [string, number, AlertCode[]][]]>([
    [
      'Madrid spring: 23 h day takes 23 of 1-per-hour',
      [r('2026-03-27T23:00:00Z', 0), r('2026-03-30T22:00:00Z', 71)],
      'Europe/Madrid',
      '2026-03-28',
      [
        ['2026-03-28', 24, []],
        ['2026-03-29', 23, []],
        ['2026-03-30', 24, []],
      ],
    ],
    [
      'Madrid autumn: 25 h day takes 25',
      [r('2026-10-23T22:00:00Z', 0), r('2026-10-26T23:00:00Z', 73)],
      'Europe/Madrid',
      '2026-10-24',
      [
        ['2026-10-24', 24, []],
        ['2026-10-25', 25, []],
        ['2026-10-26', 24, []],
      ],
    ],
    [
      'New York spring: 23 h day',
      [r('2026-03-07T05:00:00Z', 0), r('2026-03-10T04:00:00Z', 71)],
      'America/New_York',
      '2026-03-07',
      [
        ['2026-03-07', 24, []],
        ['2026-03-08', 23, []],
        ['2026-03-09', 24, []],
      ],
    ],
  ])('%s', (_name, readings, zone, from, expected) => {
    expect(daily(readings, from, expected[expected.length - 1][0], zone)).toEqual(expected);
  });

  // The same 24 units over 12:00Z..12:00Z, 1 per hour, split where each zone's midnight falls.
  it.each<[string, number, number]>([
    ['UTC', 12, 12],
    ['Asia/Kolkata', 6.5, 17.5],
    ['Asia/Kathmandu', 6.25, 17.75],
    ['Australia/Darwin', 2.5, 21.5],
    ['America/Sao_Paulo', 15, 9],
  ])('splits at local midnight in %s', (zone, first, second) => {
    const readings = [r('2026-03-09T12:00:00Z', 0), r('2026-03-10T12:00:00Z', 24)];
    expect(daily(readings, '2026-03-09', '2026-03-10', zone)).toEqual([
      ['2026-03-09', first, []],
      ['2026-03-10', second, []],
    ]);
  });

  it('flags a reset on the day of the reading that showed the decrease; the interval counts 0', () => {
    const readings = [r('2026-03-01T00:00:00Z', 100), r('2026-03-01T12:00:00Z', 110), r('2026-03-02T06:00:00Z', 3), r('2026-03-02T18:00:00Z', 9)];
    expect(daily(readings, '2026-03-01', '2026-03-03', 'UTC')).toEqual([
      ['2026-03-01', 10, []],
      ['2026-03-02', 6, ['REGISTER_RESET']],
      ['2026-03-03', 0, ['NO_DATA']],
    ]);
  });

  it('a decrease read exactly at midnight belongs to the day that midnight starts', () => {
    const readings = [r('2026-03-01T00:00:00Z', 50), r('2026-03-02T00:00:00Z', 2), r('2026-03-03T00:00:00Z', 7)];
    expect(daily(readings, '2026-03-01', '2026-03-02', 'UTC')).toEqual([
      ['2026-03-01', 0, []],
      ['2026-03-02', 5, ['REGISTER_RESET']],
    ]);
  });

  it('counts resets per day in the message', () => {
    const readings = [r('2026-03-01T01:00:00Z', 9), r('2026-03-01T02:00:00Z', 1), r('2026-03-01T03:00:00Z', 8), r('2026-03-01T04:00:00Z', 0)];
    const [day] = dailyConsumption(intervalsFromReadings(readings), localDays('2026-03-01', '2026-03-01', 'UTC'));
    // 9 -> 1 (reset, 0) -> 8 (+7) -> 0 (reset, 0)
    expect(day.value).toBe(7);
    expect(day.alerts).toEqual([{ code: 'REGISTER_RESET', message: expect.stringContaining('2 times') }]);
  });

  it.each<[string, Reading[], number, AlertCode[]]>([
    ['today covered up to the latest reading is not NO_DATA', [r('2026-03-10T00:00:00Z', 0), r('2026-03-10T09:00:00Z', 9)], 9, []],
    ['today after a gap from yesterday gets its share', [r('2026-03-09T18:00:00Z', 0), r('2026-03-10T06:00:00Z', 12)], 6, []],
    ['today whose only reading is at its midnight has no data yet', [r('2026-03-09T00:00:00Z', 0), r('2026-03-10T00:00:00Z', 5)], 0, ['NO_DATA']],
    ['a single reading ever gives no interval', [r('2026-03-10T08:00:00Z', 5)], 0, ['NO_DATA']],
  ])('%s', (_name, readings, value, codes) => {
    expect(daily(readings, '2026-03-10', '2026-03-10', 'UTC')).toEqual([['2026-03-10', value, codes]]);
  });

  it('gives the same answer for out-of-order input and for unordered intervals', () => {
    // 30 over 18:00..06:00 (2.5 per hour, half each side of midnight), then 6 by 18:00.
    const readings = [r('2026-03-02T06:00:00Z', 30), r('2026-03-01T18:00:00Z', 0), r('2026-03-02T18:00:00Z', 36)];
    const expected: [string, number, AlertCode[]][] = [
      ['2026-03-01', 15, []],
      ['2026-03-02', 21, []],
    ];
    expect(daily(readings, '2026-03-01', '2026-03-02', 'UTC')).toEqual(expected);
    const reversed = intervalsFromReadings(readings).reverse();
    const days = dailyConsumption(reversed, localDays('2026-03-01', '2026-03-02', 'UTC'));
    expect(days.map((d) => [d.date, d.value, d.alerts.map((a) => a.code)])).toEqual(expected);
  });
});

describe('sumDays', () => {
  const day = (value: number, ...codes: AlertCode[]): DailyConsumption => ({
    date: '2026-03-01',
    value,
    alerts: codes.map((code) => ({ code, message: '' })),
    quality: codes.includes('NO_DATA') ? 'MISSING' : 'ACTUAL',
  });

  it.each<[string, DailyConsumption[], number, [AlertCode, string][]]>([
    ['no days', [], 0, []],
    ['clean days', [day(1.5), day(2.25)], 3.75, []],
    [
      'one alert per code, counting days',
      [day(0, 'NO_DATA'), day(4, 'REGISTER_RESET'), day(0, 'NO_DATA'), day(1)],
      5,
      [
        ['NO_DATA', '2 days'],
        ['REGISTER_RESET', '1 day'],
      ],
    ],
  ])('%s', (_name, days, value, alerts) => {
    const total = sumDays(days);
    expect(total.value).toBe(value);
    expect(total.alerts.map((a) => [a.code, a.message.match(/\d+ days?/)?.[0]])).toEqual(alerts);
  });
});
