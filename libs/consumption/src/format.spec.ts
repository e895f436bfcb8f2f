import { describe, expect, it } from 'vitest';
import { dataPointDate, decimalAndFormatted, displayValue, formatDecimal, formatWithUnit, roundDecimal } from './format';

describe('formatDecimal', () => {
  it.each<[number, number, string]>([
    [12.345, 3, '12.345'],
    [12.3, 3, '12.300'],
    [0, 3, '0.000'],
    [-0, 3, '0.000'],
    [-0.0004, 3, '0.000'],
    [-0.0005, 3, '-0.001'],
    [0.0005, 3, '0.001'],
    [0.1 + 0.2, 3, '0.300'],
    [0.1 + 0.2, 17, '0.30000000000000000'],
    [(0.1 + 0.2) * 10, 0, '3'],
    [1.005, 2, '1.01'],
    [8.345, 2, '8.35'],
    [1.0005, 3, '1.001'],
    [1.0004999, 3, '1.000'],
    [2.5, 0, '3'],
    [-2.5, 0, '-3'],
    [0.125, 2, '0.13'],
    [9.9996, 3, '10.000'],
    [999.95, 1, '1000.0'],
    [1234567.891, 2, '1234567.89'],
    [-1234.56, 1, '-1234.6'],
    [123, 0, '123'],
    [0.000001, 3, '0.000'],
    [1e-7, 8, '0.00000010'],
    [1e21, 0, '1000000000000000000000'],
  ])('%s to %i places -> %s', (value, places, expected) => {
    expect(formatDecimal(value, places)).toBe(expected);
  });

  it.each<[number, number]>([
    [Number.NaN, 3],
    [Number.POSITIVE_INFINITY, 3],
    [1, -1],
    [1, 1.5],
    [1, 21],
  ])('refuses %s with %s places', (value, places) => {
    expect(() => formatDecimal(value, places)).toThrow(RangeError);
  });
});

describe('roundDecimal', () => {
  it.each<[number, number, number]>([
    [1.005, 2, 1.01],
    [-0.0004, 3, 0],
    [2.675, 2, 2.68],
    [77.49999999999999, 2, 77.5],
  ])('%s to %i places -> %s', (value, places, expected) => {
    expect(Object.is(roundDecimal(value, places), expected)).toBe(true);
  });
});

describe('displayValue', () => {
  it.each<[number, string]>([
    [1234.5, '1,234.5'],
    [0, '0.0'],
    [-0, '0.0'],
    [0.04, '0.0'],
    [-0.04, '0.0'],
    [0.05, '0.1'],
    [12, '12.0'],
    [100, '100.0'],
    [999.95, '1,000.0'],
    [100000, '100,000.0'],
    [1234567.25, '1,234,567.3'],
    [-1234.56, '-1,234.6'],
    [-999.94, '-999.9'],
    [-999.96, '-1,000.0'],
    [999.94, '999.9'],
  ])('%s -> %s', (value, expected) => {
    expect(displayValue(value)).toBe(expected);
  });
});

describe('formatWithUnit', () => {
  it.each<[number, number, string, string]>([
    [12.345, 3, 'm³', '12.345 m³'],
    [1234.5678, 3, 'm³', '1,234.568 m³'],
    [0, 0, 'L', '0 L'],
    [1234567, 0, 'L', '1,234,567 L'],
    [999, 0, 'L', '999 L'],
    [1000, 0, 'L', '1,000 L'],
    [-1000, 0, 'L', '-1,000 L'],
    [-999, 0, 'L', '-999 L'],
    [5, 2, '', '5.00'],
  ])('%s, %i places, %j -> %s', (value, places, unit, expected) => {
    expect(formatWithUnit(value, places, unit)).toBe(expected);
  });
});

describe('decimalAndFormatted', () => {
  // Rounding once for both strings changes nothing: they are formatDecimal's and formatWithUnit's.
  it.each<[number, number, string]>([
    [12.345, 3, 'm³'],
    [1234.5678, 3, 'm³'],
    [0, 0, 'L'],
    [-0.0004, 3, 'm³'],
    [1.0005, 3, 'm³'],
    [0.1 + 0.2, 1, ''],
    [-1234567.891, 2, 'L'],
    [123456789012.3456, 4, 'm³'],
    [1e-7, 3, 'm³'],
    [2.675, 2, '€'],
  ])('%s, %i places, %j', (value, places, unit) => {
    expect(decimalAndFormatted(value, places, unit)).toEqual({ value: formatDecimal(value, places), value_fmt: formatWithUnit(value, places, unit) });
  });
});

describe('dataPointDate', () => {
  it('is local midnight in the spec notation', () => {
    expect(dataPointDate('2026-03-01')).toBe('2026-03-01 00:00:00.000');
  });
});

describe('formatDecimal against exact decimal arithmetic', () => {
  /** The reference: the same 15 significant digits, rounded half away from zero in BigInt only. */
  function reference(value: number, places: number): string {
    const [mantissa, exponent] = Math.abs(value).toExponential(14).split('e');
    const digits = BigInt(mantissa.replace('.', ''));
    const shift = Number(exponent) - 14 + places;
    let scaled: bigint;
    if (shift >= 0) scaled = digits * 10n ** BigInt(shift);
    else {
      const divisor = 10n ** BigInt(-shift);
      scaled = digits / divisor + ((digits % divisor) * 2n >= divisor ? 1n : 0n);
    }
    if (scaled === 0n) return places === 0 ? '0' : `0.${'0'.repeat(places)}`;
    const text = scaled.toString().padStart(places + 1, '0');
    return `${value < 0 ? '-' : ''}${text.slice(0, text.length - places)}${places > 0 ? `.${text.slice(text.length - places)}` : ''}`;
  }

  it('agrees on 20,000 values of every magnitude, ties and near-ties included', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const values: number[] = [];
    for (let i = 0; i < 5000; i++) values.push((random() - 0.5) * 10 ** Math.floor(random() * 40 - 20));
    for (let i = 0; i < 5000; i++) values.push(Math.round(random() * 1e7) / 1000 + 0.0005); // ties at 3 places
    for (let i = 0; i < 5000; i++) values.push(Math.round(random() * 1e9) / 2 ** Math.floor(random() * 20)); // exact binary fractions
    for (let i = 0; i < 5000; i++) values.push(Math.floor(random() * 2 ** 53) * 10 ** Math.floor(random() * 10 - 5));
    for (const value of values) {
      const places = Math.floor(Math.abs(value * 997) % 21);
      expect(formatDecimal(value, places), `${value} to ${places} places`).toBe(reference(value, places));
      expect(formatDecimal(value, 3), `${value} to 3 places`).toBe(reference(value, 3));
    }
  });
});
