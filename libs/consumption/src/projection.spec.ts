import { describe, expect, it } from 'vitest';
import { intervalsFromReadings } from './interval';
import { projectMonth } from '@meter/testing/consumption-oracle';
import { Projection, projectionFromConsumption, projectionWindow } from './projection';
import { Reading } from './reading';

const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number): string => new Date(ms).toISOString();
const r = (when: string, value: number): Reading => ({ readAt: at(when), value });

describe('projectionWindow', () => {
  it.each<[string, string, number, number, string, string, string, string, string, string]>([
    // now, zone, days used, days in month, first, last, calculation, projection, from, to
    ['2026-03-15T10:00:00Z', 'UTC', 14, 31, '2026-03-01', '2026-03-14', '2026-03-15', '2026-03-31', '2026-03-01T00:00:00.000Z', '2026-03-15T00:00:00.000Z'],
    ['2026-03-02T10:00:00Z', 'UTC', 1, 31, '2026-03-01', '2026-03-01', '2026-03-02', '2026-03-31', '2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z'],
    ['2026-03-01T08:00:00Z', 'UTC', 7, 31, '2026-02-22', '2026-02-28', '2026-03-01', '2026-03-31', '2026-02-22T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
    ['2028-02-01T06:00:00Z', 'UTC', 7, 29, '2028-01-25', '2028-01-31', '2028-02-01', '2028-02-29', '2028-01-25T00:00:00.000Z', '2028-02-01T00:00:00.000Z'],
    ['2026-12-31T12:00:00Z', 'UTC', 30, 31, '2026-12-01', '2026-12-30', '2026-12-31', '2026-12-31', '2026-12-01T00:00:00.000Z', '2026-12-31T00:00:00.000Z'],
    // 23:30Z on 31 March is 05:00 on 1 April in Kolkata: the 1st there.
    [
      '2026-03-31T23:30:00Z',
      'Asia/Kolkata',
      7,
      30,
      '2026-03-25',
      '2026-03-31',
      '2026-04-01',
      '2026-04-30',
      '2026-03-24T18:30:00.000Z',
      '2026-03-31T18:30:00.000Z',
    ],
    // Madrid's 7 days include the 23 h 29 March.
    [
      '2026-04-01T10:00:00Z',
      'Europe/Madrid',
      7,
      30,
      '2026-03-25',
      '2026-03-31',
      '2026-04-01',
      '2026-04-30',
      '2026-03-24T23:00:00.000Z',
      '2026-03-31T22:00:00.000Z',
    ],
  ])('%s in %s', (now, zone, daysUsed, total, first, last, calculation, projection, from, to) => {
    const window = projectionWindow(at(now), zone);
    expect(window).toMatchObject({
      daysUsed,
      totalDaysInMonth: total,
      firstDate: first,
      lastDate: last,
      calculationDate: calculation,
      projectionDate: projection,
    });
    expect([iso(window.from), iso(window.to)]).toEqual([from, to]);
  });
});

describe('projectMonth', () => {
  it.each<[string, Reading[], string, string, number, Projection]>([
    [
      'mid-month: days 1..14 average, today excluded',
      // 28 over 1..14 March (2 a day); today's 12 units must not count.
      [r('2026-03-01T00:00:00Z', 0), r('2026-03-15T00:00:00Z', 28), r('2026-03-15T10:00:00Z', 40)],
      '2026-03-15T10:00:00Z',
      'UTC',
      1.5,
      {
        days_used_for_calculation: 14,
        total_days_in_month: 31,
        average_daily_consumption: 2,
        projected_value: 62,
        projected_cost: 93,
        calculation_date: '2026-03-15',
        projection_date: '2026-03-31',
      },
    ],
    [
      'on the 1st: the last 7 completed days, in the previous month',
      // 21 over 22..28 February (3 a day); the 1st's 9 units must not count.
      [r('2026-02-22T00:00:00Z', 0), r('2026-03-01T00:00:00Z', 21), r('2026-03-01T08:00:00Z', 30)],
      '2026-03-01T08:00:00Z',
      'UTC',
      2,
      {
        days_used_for_calculation: 7,
        total_days_in_month: 31,
        average_daily_consumption: 3,
        projected_value: 93,
        projected_cost: 186,
        calculation_date: '2026-03-01',
        projection_date: '2026-03-31',
      },
    ],
    [
      'on the 1st of a leap February',
      [r('2028-01-25T00:00:00Z', 100), r('2028-02-01T00:00:00Z', 114)],
      '2028-02-01T06:00:00Z',
      'UTC',
      0,
      {
        days_used_for_calculation: 7,
        total_days_in_month: 29,
        average_daily_consumption: 2,
        projected_value: 58,
        projected_cost: 0,
        calculation_date: '2028-02-01',
        projection_date: '2028-02-29',
      },
    ],
    [
      'Kolkata: 1 and 2 March local, 10 units',
      [r('2026-02-28T18:30:00Z', 0), r('2026-03-01T18:30:00Z', 4), r('2026-03-02T18:30:00Z', 10)],
      '2026-03-02T20:00:00Z',
      'Asia/Kolkata',
      0.5,
      {
        days_used_for_calculation: 2,
        total_days_in_month: 31,
        average_daily_consumption: 5,
        projected_value: 155,
        projected_cost: 77.5,
        calculation_date: '2026-03-03',
        projection_date: '2026-03-31',
      },
    ],
    [
      'days without readings count 0 (device active since the 11th)',
      [r('2026-04-11T00:00:00Z', 0), r('2026-04-21T00:00:00Z', 40)],
      '2026-04-21T09:00:00Z',
      'UTC',
      1,
      {
        days_used_for_calculation: 20,
        total_days_in_month: 30,
        average_daily_consumption: 2,
        projected_value: 60,
        projected_cost: 60,
        calculation_date: '2026-04-21',
        projection_date: '2026-04-30',
      },
    ],
  ])('%s', (_name, readings, now, zone, price, expected) => {
    expect(projectMonth(intervalsFromReadings(readings), at(now), zone, price)).toEqual(expected);
  });

  it('same instant in UTC: only 1 March is complete, 107/24 units in it', () => {
    // 4 over 18:30Z..18:30Z (18.5 h of it on 1 March) and 6 over the next day (5.5 h on 1 March).
    const readings = [r('2026-02-28T18:30:00Z', 0), r('2026-03-01T18:30:00Z', 4), r('2026-03-02T18:30:00Z', 10)];
    const projection = projectMonth(intervalsFromReadings(readings), at('2026-03-02T20:00:00Z'), 'UTC', 0);
    expect(projection.days_used_for_calculation).toBe(1);
    expect(projection.average_daily_consumption).toBeCloseTo(107 / 24, 12);
    expect(projection.projected_value).toBeCloseTo((107 * 31) / 24, 12);
  });
});

describe('projectionFromConsumption', () => {
  it('uses the consumption a caller summed elsewhere', () => {
    const window = projectionWindow(at('2026-04-10T12:00:00Z'), 'UTC');
    expect(projectionFromConsumption(window, 45, 0.5)).toEqual({
      days_used_for_calculation: 9,
      total_days_in_month: 30,
      average_daily_consumption: 5,
      projected_value: 150,
      projected_cost: 75,
      calculation_date: '2026-04-10',
      projection_date: '2026-04-30',
    });
  });
});
