import { describe, expect, it } from 'vitest';
import { addDays, addMonths, datesBetween, daysInMonth, isLocalDate } from './local-date';

describe('addDays', () => {
  it.each([
    ['2026-02-28', 1, '2026-03-01'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2028-02-29', 1, '2028-03-01'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2026-03-01', -1, '2026-02-28'],
    ['2028-03-01', -1, '2028-02-29'],
    ['2026-01-10', -15, '2025-12-26'],
    ['2026-03-29', 0, '2026-03-29'],
    ['2026-01-01', 365, '2027-01-01'],
    ['2028-01-01', 365, '2028-12-31'],
  ])('%s plus %i days -> %s', (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
  });

  it('refuses a fractional count', () => {
    expect(() => addDays('2026-01-01', 0.5)).toThrow(RangeError);
  });
});

describe('daysInMonth', () => {
  it.each([
    [2026, 1, 31],
    [2026, 2, 28],
    [2028, 2, 29],
    [2000, 2, 29],
    [2100, 2, 28],
    [2026, 4, 30],
    [2026, 12, 31],
  ])('%d-%d has %d days', (year, month, days) => {
    expect(daysInMonth(year, month)).toBe(days);
  });

  it.each([
    [2026, 0],
    [2026, 13],
    [2026, 1.5],
  ])('refuses %d-%d', (year, month) => {
    expect(() => daysInMonth(year, month)).toThrow(RangeError);
  });
});

describe('isLocalDate', () => {
  it.each([
    ['2026-03-10', true],
    ['2028-02-29', true],
    ['2026-02-29', false],
    ['2026-13-01', false],
    ['2026-00-10', false],
    ['2026-1-01', false],
    ['2026-01-32', false],
    ['2026-01-01T00:00', false],
    ['', false],
  ])('%j -> %s', (text, valid) => {
    expect(isLocalDate(text)).toBe(valid);
  });
});

describe('addMonths and datesBetween', () => {
  it.each([
    [2026, 1, -2, 2025, 11],
    [2026, 3, -1, 2026, 2],
    [2026, 12, 1, 2027, 1],
    [2026, 5, 0, 2026, 5],
  ])('%i-%i plus %i months -> %i-%i', (year, month, months, y, m) => {
    expect(addMonths(year, month, months)).toEqual({ year: y, month: m });
  });

  it('lists dates across a leap February, both ends included', () => {
    expect(datesBetween('2028-02-27', '2028-03-01')).toEqual(['2028-02-27', '2028-02-28', '2028-02-29', '2028-03-01']);
  });
});
