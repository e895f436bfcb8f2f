import { describe, expect, it } from 'vitest';
import { lastThreeMonths, resolvePeriod } from './period';

const at = (iso: string): number => Date.parse(iso);
const iso = (ms: number): string => new Date(ms).toISOString();

describe('resolvePeriod', () => {
  it.each<[string, string, string, string, string, number, 'BAR' | 'LINE']>([
    // period, now, zone, first date, last date, day count, chart
    ['7D', '2026-03-15T10:00:00Z', 'UTC', '2026-03-09', '2026-03-15', 7, 'BAR'],
    ['15D', '2026-03-15T10:00:00Z', 'UTC', '2026-03-01', '2026-03-15', 15, 'BAR'],
    ['CURRENT_MONTH', '2026-03-15T10:00:00Z', 'UTC', '2026-03-01', '2026-03-15', 15, 'LINE'],
    ['2026-02', '2026-03-15T10:00:00Z', 'UTC', '2026-02-01', '2026-02-28', 28, 'BAR'],
    ['2025-12', '2026-03-15T10:00:00Z', 'UTC', '2025-12-01', '2025-12-31', 31, 'BAR'],
    ['2026-03', '2026-03-15T10:00:00Z', 'UTC', '2026-03-01', '2026-03-31', 31, 'BAR'], // the current month by name: all of it
    ['2028-02', '2028-03-10T10:00:00Z', 'UTC', '2028-02-01', '2028-02-29', 29, 'BAR'],
    ['CURRENT_MONTH', '2028-02-29T23:00:00Z', 'UTC', '2028-02-01', '2028-02-29', 29, 'LINE'],
    // Across a year boundary.
    ['7D', '2026-01-03T10:00:00Z', 'UTC', '2025-12-28', '2026-01-03', 7, 'BAR'],
    ['15D', '2026-01-03T10:00:00Z', 'UTC', '2025-12-20', '2026-01-03', 15, 'BAR'],
    // 23:30Z on 31 March is already 1 April in Kolkata, still 31 March in New York.
    ['CURRENT_MONTH', '2026-03-31T23:30:00Z', 'Asia/Kolkata', '2026-04-01', '2026-04-01', 1, 'LINE'],
    ['7D', '2026-03-31T23:30:00Z', 'Asia/Kolkata', '2026-03-26', '2026-04-01', 7, 'BAR'],
    ['2026-04', '2026-03-31T23:30:00Z', 'Asia/Kolkata', '2026-04-01', '2026-04-30', 30, 'BAR'],
    ['CURRENT_MONTH', '2026-04-01T02:00:00Z', 'America/New_York', '2026-03-01', '2026-03-31', 31, 'LINE'],
  ])('%s at %s in %s: %s .. %s', (period, now, zone, first, last, count, chart) => {
    const result = resolvePeriod(period, at(now), zone);
    if (!result.ok) throw new Error(result.message);
    expect(result.period).toBe(period);
    expect(result.chartType).toBe(chart);
    expect(result.days).toHaveLength(count);
    expect(result.days[0].date).toBe(first);
    expect(result.days[count - 1].date).toBe(last);
  });

  it('7D over the Madrid spring change spans 7 days minus an hour', () => {
    const result = resolvePeriod('7D', at('2026-03-31T10:00:00Z'), 'Europe/Madrid');
    if (!result.ok) throw new Error(result.message);
    const days = result.days;
    expect(days.map((d) => d.date)).toEqual(['2026-03-25', '2026-03-26', '2026-03-27', '2026-03-28', '2026-03-29', '2026-03-30', '2026-03-31']);
    expect(iso(days[0].start)).toBe('2026-03-24T23:00:00.000Z');
    expect(iso(days[6].end)).toBe('2026-03-31T22:00:00.000Z');
    expect(days[6].end - days[0].start).toBe(167 * 3_600_000);
  });

  it.each<[string, string, string, RegExp]>([
    ['2026-04', '2026-03-31T23:30:00Z', 'UTC', /future/],
    ['2027-01', '2026-03-15T10:00:00Z', 'UTC', /future/],
    ['2026-13', '2026-03-15T10:00:00Z', 'UTC', /must be/],
    ['2026-00', '2026-03-15T10:00:00Z', 'UTC', /must be/],
    ['2026-1', '2026-03-15T10:00:00Z', 'UTC', /must be/],
    ['2026-03-01', '2026-03-15T10:00:00Z', 'UTC', /must be/],
    ['7d', '2026-03-15T10:00:00Z', 'UTC', /must be/],
    ['current_month', '2026-03-15T10:00:00Z', 'UTC', /must be/],
    [' 7D', '2026-03-15T10:00:00Z', 'UTC', /must be/],
    ['30D', '2026-03-15T10:00:00Z', 'UTC', /must be/],
    ['', '2026-03-15T10:00:00Z', 'UTC', /must be/],
    ['1969-12', '2026-03-15T10:00:00Z', 'UTC', /before 1970/],
  ])('%j at %s in %s is refused', (period, now, zone, message) => {
    const result = resolvePeriod(period, at(now), zone);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });
});

describe('lastThreeMonths', () => {
  it.each<[string, string, [string, string, number][]]>([
    [
      '2026-01-15T12:00:00Z',
      'UTC',
      [
        ['2025-11', '2025-11-01', 30],
        ['2025-12', '2025-12-01', 31],
        ['2026-01', '2026-01-01', 15],
      ],
    ],
    [
      '2028-04-02T12:00:00Z',
      'UTC',
      [
        ['2028-02', '2028-02-01', 29],
        ['2028-03', '2028-03-01', 31],
        ['2028-04', '2028-04-01', 2],
      ],
    ],
    // 20:00Z on 28 Feb is 01:30 on 1 March in Kolkata.
    [
      '2026-02-28T20:00:00Z',
      'Asia/Kolkata',
      [
        ['2026-01', '2026-01-01', 31],
        ['2026-02', '2026-02-01', 28],
        ['2026-03', '2026-03-01', 1],
      ],
    ],
    [
      '2026-02-28T20:00:00Z',
      'UTC',
      [
        ['2025-12', '2025-12-01', 31],
        ['2026-01', '2026-01-01', 31],
        ['2026-02', '2026-02-01', 28],
      ],
    ],
  ])('at %s in %s', (now, zone, expected) => {
    const months = lastThreeMonths(at(now), zone);
    expect(months.map((m) => [m.month, m.firstDate, m.days.length])).toEqual(expected);
    for (const month of months) expect(month.days[0].date).toBe(month.firstDate);
  });

  it('ends the current month at today and starts months at local midnight', () => {
    const months = lastThreeMonths(at('2026-03-10T12:00:00Z'), 'Asia/Kathmandu');
    expect(months[2].days[months[2].days.length - 1].date).toBe('2026-03-10');
    expect(iso(months[0].days[0].start)).toBe('2025-12-31T18:15:00.000Z');
    expect(iso(months[1].days[months[1].days.length - 1].end)).toBe('2026-02-28T18:15:00.000Z');
  });
});
