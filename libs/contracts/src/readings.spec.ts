import { describe, expect, it } from 'vitest';
import { RFC3339, realCalendarFields, rfc3339Ms } from './readings';

/** rfc3339Ms before its shortcut for plain UTC times, as it was written: Date.parse, refused when the fields do not exist (the same field check). */
function byDateParse(text: string): number | undefined {
  const ms = Date.parse(text.toUpperCase());
  return Number.isFinite(ms) && realCalendarFields(text) ? ms : undefined;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

describe('rfc3339Ms', () => {
  it('gives what Date.parse gives for every day of 1968 to 2101, every month end and the turn of each year', () => {
    let checked = 0;
    const differ: string[] = [];
    for (let year = 1968; year <= 2101; year++)
      for (let month = 0; month <= 13; month++)
        for (let day = 0; day <= 32; day++) {
          for (const time of [
            '00:00:00Z',
            '23:59:59.999Z',
            '12:34:56.789Z',
            '24:00:00Z',
            '00:60:00Z',
            '00:00:60Z',
            '12:00:00.5Z',
            '12:00:00+00:00',
            '12:00:00.123456Z',
          ]) {
            const text = `${pad(year, 4)}-${pad(month)}-${pad(day)}T${time}`;
            if (!RFC3339.test(text) || rfc3339Ms(text) !== byDateParse(text)) differ.push(text);
            checked += 1;
          }
        }
    expect(differ).toEqual([]);
    expect(checked).toBeGreaterThan(500_000);
  }, 60_000);

  it('takes a plain UTC time the way Date.parse does, and refuses days that do not exist', () => {
    expect(rfc3339Ms('2026-11-21T10:00:00.123Z')).toBe(Date.UTC(2026, 10, 21, 10, 0, 0, 123));
    expect(rfc3339Ms('1970-01-01T00:00:00Z')).toBe(0);
    expect(rfc3339Ms('2024-02-29T00:00:00Z')).toBe(Date.UTC(2024, 1, 29));
    expect(rfc3339Ms('2026-02-29T00:00:00Z')).toBeUndefined();
  });

  it('gives what Date.parse gives for random times of years 0000 to 9999', () => {
    let state = 12345;
    const next = (below: number) => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state % below;
    };
    const differ: string[] = [];
    for (let i = 0; i < 200_000; i++) {
      const fraction = ['', `.${pad(next(1000), 3)}`, `.${next(10)}`, `.${pad(next(1_000_000), 6)}`][next(4)];
      const zone = ['Z', 'z', '+05:30', '-11:00'][next(4)];
      const text = `${pad(next(10_000), 4)}-${pad(next(14))}-${pad(next(33))}${next(2) ? 'T' : 't'}${pad(next(25))}:${pad(next(61))}:${pad(next(61))}${fraction}${zone}`;
      if (rfc3339Ms(text) !== byDateParse(text)) differ.push(text);
    }
    expect(differ).toEqual([]);
  }, 60_000);
});
