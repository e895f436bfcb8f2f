import { describe, expect, it } from 'vitest';
import { addDecimals, subtractDecimals } from './decimal-sum';

describe('addDecimals and subtractDecimals', () => {
  it.each([
    [['0.100', '0.200'], 3, '0.300'],
    [['0', '1.5', '2.25'], 2, '3.75'],
    [[], 3, '0.000'],
    [['-1.5', '0.5'], 1, '-1.0'],
    [['12345678901234567890.123'], 3, '12345678901234567890.123'],
    [['7'], 0, '7'],
  ])('adds %j with %i places: %s', (terms, places, sum) => {
    expect(addDecimals(terms, places)).toBe(sum);
  });

  it('subtracts exactly', () => {
    expect(subtractDecimals('10.001', '9.999', 3)).toBe('0.002');
    expect(subtractDecimals('1.000', '1.001', 3)).toBe('-0.001');
  });

  it('refuses more places than asked for, and non-decimals', () => {
    expect(() => addDecimals(['1.2345'], 3)).toThrow(RangeError);
    expect(() => addDecimals(['1e3'], 3)).toThrow(RangeError);
  });
});
