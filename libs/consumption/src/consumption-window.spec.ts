import { describe, expect, it } from 'vitest';
import { resolveConsumptionWindow, type WindowResolution } from './consumption-window';
import { rfc3339InZone } from './local-instant';

function points(resolution: WindowResolution, zone: string): string[] {
  if (!resolution.ok) throw new Error(`${resolution.field} ${resolution.message}`);
  return resolution.window.points.map((p) => `${rfc3339InZone(p.start, zone)}/${rfc3339InZone(p.end, zone)}`);
}

describe('resolveConsumptionWindow', () => {
  it.each([
    // [interval, from, to, zone, points, first point]
    ['PT1H', '2026-03-29', '2026-03-30', 'Europe/Madrid', 23, '2026-03-29T00:00:00+01:00/2026-03-29T01:00:00+01:00'],
    ['PT1H', '2026-10-25', '2026-10-26', 'Europe/Madrid', 25, '2026-10-25T00:00:00+02:00/2026-10-25T01:00:00+02:00'],
    ['PT15M', '2026-10-25', '2026-10-26', 'Europe/Madrid', 100, '2026-10-25T00:00:00+02:00/2026-10-25T00:15:00+02:00'],
    ['PT1H', '2026-06-01', '2026-06-02', 'Asia/Kathmandu', 24, '2026-06-01T00:00:00+05:45/2026-06-01T01:00:00+05:45'],
    ['PT15M', '2026-06-01T10:15', '2026-06-01T11:00', 'Asia/Kathmandu', 3, '2026-06-01T10:15:00+05:45/2026-06-01T10:30:00+05:45'],
    ['P1D', '2026-03-28', '2026-03-31', 'Europe/Madrid', 3, '2026-03-28T00:00:00+01:00/2026-03-29T00:00:00+01:00'],
    ['P1M', '2026-01-01', '2026-04-01', 'Europe/Madrid', 3, '2026-01-01T00:00:00+01:00/2026-02-01T00:00:00+01:00'],
    // Lord Howe shifts by 30 minutes: the day's last hourly point is 30 minutes long.
    ['PT1H', '2026-04-05', '2026-04-06', 'Australia/Lord_Howe', 25, '2026-04-05T00:00:00+11:00/2026-04-05T01:00:00+11:00'],
  ])('%s from %s to %s in %s: %i points', (interval, from, to, zone, count, first) => {
    const spans = points(resolveConsumptionWindow(interval, from, to, zone), zone);
    expect(spans).toHaveLength(count);
    expect(spans[0]).toBe(first);
  });

  it('tells the two 02:00 hours of a fall-back night apart by their offset', () => {
    const spans = points(resolveConsumptionWindow('PT1H', '2026-10-25T02:00', '2026-10-25T04:00', 'Europe/Madrid'), 'Europe/Madrid');
    expect(spans).toEqual([
      '2026-10-25T02:00:00+02:00/2026-10-25T02:00:00+01:00',
      '2026-10-25T02:00:00+01:00/2026-10-25T03:00:00+01:00',
      '2026-10-25T03:00:00+01:00/2026-10-25T04:00:00+01:00',
    ]);
  });

  it('ends a month point on the last day of the window', () => {
    const spans = points(resolveConsumptionWindow('P1M', '2026-02-01', '2026-03-01', 'UTC'), 'UTC');
    expect(spans).toEqual(['2026-02-01T00:00:00+00:00/2026-03-01T00:00:00+00:00']);
  });

  it.each([
    ['PT30M', '2026-01-01', '2026-01-02', 'interval', 'must be one of PT15M, PT1H, P1D, P1M'],
    ['PT1H', '2026-01-01T10:30', '2026-01-02', 'from', "must be the start of a PT1H point of 2026-01-01 in UTC (points start at the day's midnight)"],
    ['PT1H', '2026-03-29T02:00', '2026-03-30', 'from', expect.stringContaining('must be the start of a PT1H point')],
    ['PT1H', '2026-01-02', '2026-01-02', 'to', 'must be after from'],
    ['PT1H', '2026-02-30', '2026-03-02', 'from', 'must be a local date YYYY-MM-DD or date-time YYYY-MM-DDTHH:MM'],
    ['PT1H', '2026-01-01', '2026-01-01T24:00', 'to', 'must be a local date YYYY-MM-DD or date-time YYYY-MM-DDTHH:MM'],
    ['P1D', '2026-01-01T06:00', '2026-01-02', 'from', 'must be a date (or THH:MM 00:00) with P1D'],
    ['P1M', '2026-01-15', '2026-03-01', 'from', 'must be the first day of a month with P1M'],
    ['PT15M', '2026-01-01', '2026-05-01', 'to', 'makes more than 10000 points of PT15M'],
    ['PT1H', '2026-01-01', '2027-03-01', 'to', 'makes more than 10000 points of PT1H'],
    ['P1D', '1900-01-01', '2026-03-01', 'from', 'must be a date from 1970 on'],
  ])('%s from %s to %s: 400 on %s', (interval, from, to, field, message) => {
    const zone = 'Europe/Madrid';
    const resolution = resolveConsumptionWindow(interval, from, to, from.includes('10:30') ? 'UTC' : zone);
    expect(resolution).toEqual({ ok: false, field, message });
  });

  it('takes exactly 10,000 points', () => {
    // 10,000 quarter hours from 2026-01-01 00:00 UTC: 104 days and 4 hours.
    const resolution = resolveConsumptionWindow('PT15M', '2026-01-01', '2026-04-15T04:00', 'UTC');
    expect(resolution.ok && resolution.window.points).toHaveLength(10_000);
  });
});
