import { formatDecimalTimes, type Ratio } from './format';
import type { Unit } from './unit';

/**
 * Nanolitres in one of each unit: the exact factors of docs/consumption.md
 * ("Units") as integers, so conversions are exact ratios. 1 m³ = 1000 L,
 * 1 US gal = 3.785411784 L, 1 ft³ = 28.316846592 L, 1 CCF = 100 ft³.
 * Every conversion factor of the platform comes from this table.
 */
export const NANOLITRES_PER_UNIT: Readonly<Record<Unit, bigint>> = {
  'm³': 1_000_000_000_000n,
  L: 1_000_000_000n,
  gal: 3_785_411_784n,
  'ft³': 28_316_846_592n,
  CCF: 2_831_684_659_200n,
};

/** The exact factor from one unit to another, in lowest terms: 1 `from` = numerator / denominator `to`. */
export function conversionRatio(from: Unit, to: Unit): Ratio {
  const numerator = NANOLITRES_PER_UNIT[from];
  const denominator = NANOLITRES_PER_UNIT[to];
  const divisor = gcd(numerator, denominator);
  return { numerator: numerator / divisor, denominator: denominator / divisor };
}

/** `value` in `from` as decimal text in `to`, rounded once, exactly (formatDecimalTimes). */
export function convertDecimal(value: number, decimalPlaces: number, from: Unit, to: Unit): string {
  return formatDecimalTimes(value, decimalPlaces, conversionRatio(from, to));
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}
