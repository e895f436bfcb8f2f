import { describe, expect, it } from 'vitest';
import { formatDecimal } from './format';
import { UNITS, type Unit } from './unit';
import { conversionRatio, convertDecimal } from './unit-conversion';

/**
 * The reference: exact decimal arithmetic on the texts, from the factors as
 * written in docs/consumption.md (litres per unit), with no table of this
 * library: value × litres(from) / litres(to), rounded half away from zero.
 */
const LITRES: Record<Unit, string> = { 'm³': '1000', L: '1', gal: '3.785411784', 'ft³': '28.316846592', CCF: '2831.6846592' };

/** A decimal text as an integer and a power of ten: "12.50" -> [1250n, 2]. */
function decimal(text: string): [bigint, number] {
  const [whole, fraction = ''] = text.split('.');
  return [BigInt(whole + fraction), fraction.length];
}

function exactConversion(value: string, places: number, from: Unit, to: Unit): string {
  const [v, vScale] = decimal(value);
  const [f, fScale] = decimal(LITRES[from]);
  const [t, tScale] = decimal(LITRES[to]);
  // value × f / 10^fScale / (t / 10^tScale) × 10^places, over 10^vScale
  const numerator = v * f * 10n ** BigInt(tScale + places);
  const denominator = t * 10n ** BigInt(vScale + fScale);
  let scaled = numerator / denominator;
  if ((numerator % denominator) * 2n >= denominator) scaled += 1n;
  const digits = scaled.toString().padStart(places + 1, '0');
  return places === 0 ? digits : `${digits.slice(0, -places)}.${digits.slice(-places)}`;
}

describe('convertDecimal', () => {
  // value, places, from, to, exact result; the ones marked * print otherwise when the double product is formatted
  it.each<[string, number, Unit, Unit, string]>([
    ['1', 3, 'm³', 'L', '1000.000'],
    ['1', 6, 'm³', 'gal', '264.172052'],
    ['1', 3, 'm³', 'ft³', '35.315'],
    ['1', 6, 'm³', 'CCF', '0.353147'],
    ['1', 9, 'gal', 'L', '3.785411784'],
    ['1', 9, 'ft³', 'L', '28.316846592'],
    ['1', 3, 'CCF', 'ft³', '100.000'],
    ['1', 4, 'CCF', 'gal', '748.0519'],
    ['1', 6, 'L', 'gal', '0.264172'],
    ['0.5', 3, 'L', 'm³', '0.001'], // an exact half rounds away from zero
    ['0.0005', 0, 'm³', 'L', '1'],
    ['12', 3, 'm³', 'gal', '3170.065'],
    ['12.5', 3, 'm³', 'ft³', '441.433'],
    ['2061', 1, 'm³', 'gal', '544458.6'],
    ['1234.567', 3, 'L', 'm³', '1.235'],
    ['748.052', 3, 'gal', 'CCF', '1.000'],
    ['6167741', 3, 'm³', 'gal', '1629344798.383'], // * 1629344798.384
    ['5824918', 1, 'm³', 'ft³', '205705037.8'], // * 205705037.9
    ['6588131', 0, 'CCF', 'L', '18655509485'], // * 18655509486
    ['7710088', 4, 'CCF', 'gal', '5767546348.0519'], // * 5767546348.0520
    ['0.1', 17, 'm³', 'gal', '26.41720523581484154'], // * 26.41720523581480000
    ['0', 3, 'm³', 'gal', '0.000'],
    ['999999999999.999', 3, 'm³', 'L', '999999999999999.000'],
  ])('%s %s to %s places: %s -> %s', (value, places, from, to, expected) => {
    expect(convertDecimal(Number(value), places, from, to)).toBe(expected);
    expect(exactConversion(value, places, from, to)).toBe(expected);
  });

  it('agrees with exact decimal arithmetic on every pair of units, for register-like values', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (const from of UNITS) {
      for (const to of UNITS) {
        for (let i = 0; i < 300; i++) {
          const value = formatDecimal(next() / 10 ** (next() % 7), 6).replace(/\.?0+$/, '') || '0';
          const places = next() % 7;
          expect([value, places, from, to, convertDecimal(Number(value), places, from, to)]).toEqual([
            value,
            places,
            from,
            to,
            exactConversion(value, places, from, to),
          ]);
        }
      }
    }
  });

  it('reads the value as formatDecimal does: 0.1 + 0.2 is 0.3', () => {
    expect(convertDecimal(0.1 + 0.2, 3, 'm³', 'L')).toBe('300.000');
    expect(convertDecimal(-0.0004, 3, 'm³', 'L')).toBe('-0.400');
    expect(convertDecimal(-0.0000004, 3, 'm³', 'L')).toBe('0.000');
  });

  it('is the identity from a unit to itself and inverts exactly', () => {
    for (const unit of UNITS) expect(conversionRatio(unit, unit)).toEqual({ numerator: 1n, denominator: 1n });
    expect(conversionRatio('m³', 'L')).toEqual({ numerator: 1000n, denominator: 1n });
    expect(conversionRatio('CCF', 'ft³')).toEqual({ numerator: 100n, denominator: 1n });
    expect(conversionRatio('gal', 'm³')).toEqual({ numerator: 473176473n, denominator: 125000000000n });
  });
});
