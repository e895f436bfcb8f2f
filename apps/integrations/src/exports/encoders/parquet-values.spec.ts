import { describe, expect, it } from 'vitest';
import { epochDay, unscaledDecimal } from './parquet-values';

describe('Parquet values', () => {
  it('counts DATE days from 1970-01-01, before it too', () => {
    expect(epochDay('1970-01-01')).toBe(0);
    expect(epochDay('2026-03-10')).toBe(20522);
    expect(epochDay('1969-12-31')).toBe(-1);
    expect(() => epochDay('2026-02-30')).toThrow(RangeError);
  });

  it('scales decimal text to an exact integer', () => {
    expect(unscaledDecimal('1.25', 3)).toBe(1250n);
    expect(unscaledDecimal('0', 3)).toBe(0n);
    expect(unscaledDecimal('0.000', 3)).toBe(0n);
    expect(unscaledDecimal('-2.5', 1)).toBe(-25n);
    expect(unscaledDecimal('123456789012.345678', 6)).toBe(123456789012345678n);
    expect(unscaledDecimal('7', 0)).toBe(7n);
  });

  it('refuses text that is not a decimal, more places than the scale, or more than 18 digits', () => {
    for (const text of ['', '1.', '.5', '1e3', ' 1', '1,5', 'NaN']) expect(() => unscaledDecimal(text, 3)).toThrow(RangeError);
    expect(() => unscaledDecimal('1.2345', 3)).toThrow(RangeError);
    expect(() => unscaledDecimal('1234567890123.456789', 6)).toThrow(RangeError);
  });
});
