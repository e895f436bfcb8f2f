import { describe, expect, it } from 'vitest';
import { dailyConsumption } from './daily-consumption';
import { intervalsFromReadings } from './interval';
import { localDays } from './local-day';
import type { Quality } from './quality';
import type { Reading } from './reading';

const r = (iso: string, value: number): Reading => ({ readAt: Date.parse(iso), value });

function qualities(readings: Reading[], from: string, to: string, zone: string): [string, Quality][] {
  return dailyConsumption(intervalsFromReadings(readings), localDays(from, to, zone)).map((d) => [d.date, d.quality]);
}

describe('day quality', () => {
  it.each<[string, Reading[], string, string, string, [string, Quality][]]>([
    [
      'hourly readings: ACTUAL; days outside them: MISSING',
      [r('2026-03-02T00:00:00Z', 0), r('2026-03-02T12:00:00Z', 12), r('2026-03-03T06:00:00Z', 30)],
      'UTC',
      '2026-03-01',
      '2026-03-04',
      [
        ['2026-03-01', 'MISSING'],
        ['2026-03-02', 'ACTUAL'],
        ['2026-03-03', 'ACTUAL'],
        ['2026-03-04', 'MISSING'],
      ],
    ],
    [
      'a 48-hour gap: every day it touches is ESTIMATED, the days around it ACTUAL',
      [r('2026-03-01T12:00:00Z', 0), r('2026-03-01T18:00:00Z', 6), r('2026-03-03T18:00:00Z', 54), r('2026-03-04T06:00:00Z', 66)],
      'UTC',
      '2026-02-28',
      '2026-03-05',
      [
        ['2026-02-28', 'MISSING'],
        ['2026-03-01', 'ESTIMATED'],
        ['2026-03-02', 'ESTIMATED'],
        ['2026-03-03', 'ESTIMATED'],
        ['2026-03-04', 'ACTUAL'],
        ['2026-03-05', 'MISSING'],
      ],
    ],
    [
      'exactly 24 hours between readings is not a gap',
      [r('2026-03-01T00:00:00Z', 0), r('2026-03-02T00:00:00Z', 24)],
      'UTC',
      '2026-03-01',
      '2026-03-01',
      [['2026-03-01', 'ACTUAL']],
    ],
    [
      'a gap that ends exactly at midnight leaves the next day alone',
      [r('2026-03-01T00:00:00Z', 0), r('2026-03-03T00:00:00Z', 48), r('2026-03-03T12:00:00Z', 60)],
      'UTC',
      '2026-03-02',
      '2026-03-03',
      [
        ['2026-03-02', 'ESTIMATED'],
        ['2026-03-03', 'ACTUAL'],
      ],
    ],
    [
      'a gap with no consumption (and a reset) is still ESTIMATED',
      [r('2026-03-01T00:00:00Z', 10), r('2026-03-02T06:00:00Z', 10), r('2026-03-03T12:00:00Z', 2)],
      'UTC',
      '2026-03-01',
      '2026-03-03',
      [
        ['2026-03-01', 'ESTIMATED'],
        ['2026-03-02', 'ESTIMATED'],
        ['2026-03-03', 'ESTIMATED'],
      ],
    ],
    [
      'local days: a gap ending at 01:00 Madrid (00:00 UTC) touches the local day before only',
      [r('2026-01-10T00:00:00Z', 0), r('2026-01-12T00:00:00Z', 48), r('2026-01-12T12:00:00Z', 60)],
      'Europe/Madrid',
      '2026-01-12',
      '2026-01-12',
      [['2026-01-12', 'ESTIMATED']],
    ],
  ])('%s', (_, readings, zone, from, to, expected) => {
    expect(qualities(readings, from, to, zone)).toEqual(expected);
  });
});
