import { describe, expect, it } from 'vitest';
import { EPISODE_CODES as CODES, UNITS } from '@meter/consumption';
import { chartColumns, dailyRows, EPISODE_CODES, lastReadingText, periodChoices, threeMonthRows, UNIT_CHOICES } from './fleet';

describe('the fleet pages’ logic', () => {
  it('offers the codes and units the platform has', () => {
    expect(EPISODE_CODES).toEqual(CODES);
    expect(UNIT_CHOICES.map((u) => u.label)).toEqual(UNITS);
  });

  it('turns history points into table rows with the gateway’s digits, and chart columns', () => {
    const rows = dailyRows([
      { date: '2026-11-01 00:00:00.000', value: '1.250', quality: 'ACTUAL' },
      { date: '2026-11-02 00:00:00.000', value: '0', quality: 'MISSING' },
    ]);
    expect(rows).toEqual([
      { date: '2026-11-01', value: '1.250', quality: 'ACTUAL' },
      { date: '2026-11-02', value: '0', quality: 'MISSING' },
    ]);
    expect(chartColumns(rows)).toEqual([
      [Date.UTC(2026, 10, 1) / 1000, Date.UTC(2026, 10, 2) / 1000],
      [1.25, 0],
    ]);
    expect(threeMonthRows([{ by_days: [{ date: '2026-09-01', value: '2', quality: 'ESTIMATED' }] }, { by_days: [] }])).toEqual([
      { date: '2026-09-01', value: '2', quality: 'ESTIMATED' },
    ]);
  });

  it('lists the periods: the named ones, then the twelve months before this one', () => {
    const choices = periodChoices('2026-01-15');
    expect(choices.slice(0, 3).map((c) => c.value)).toEqual(['7D', '15D', 'CURRENT_MONTH']);
    expect(choices[3].value).toBe('2025-12');
    expect(choices.at(-1)!.value).toBe('2025-01');
    expect(choices).toHaveLength(15);
  });

  it('describes the last reading', () => {
    expect(lastReadingText(null, 'm³', (s) => s)).toBe('no reading yet');
    expect(lastReadingText({ read_at: 'T', value: '12.500' }, 'm³', (s) => `at ${s}`)).toBe('at T · 12.500 m³');
  });
});
