/**
 * Decimal text for the API. Numbers are rounded half away from zero after
 * trimming binary noise to 15 significant digits (all a double holds
 * reliably), so 0.1 + 0.2 prints 0.3 and 1.0005 (stored as 1.000499…) rounds
 * to 1.001, as a person reading the decimal would expect.
 */

const MAX_DECIMALS = 20;

/** Fixed decimals, no grouping: `12.345`. Never `-0.000`. */
export function formatDecimal(value: number, decimalPlaces: number): string {
  checkArguments(value, decimalPlaces);
  return decimalText(value, scaledInteger(Math.abs(value), decimalPlaces), decimalPlaces);
}

/** An exact ratio of two positive integers: a unit conversion factor. */
export interface Ratio {
  numerator: bigint;
  denominator: bigint;
}

/**
 * `formatDecimal` of `value × ratio`, computed exactly: the value's decimal
 * (its 15 significant digits, as `formatDecimal` reads it) times the ratio,
 * rounded half away from zero once, with no binary product in between.
 */
export function formatDecimalTimes(value: number, decimalPlaces: number, ratio: Ratio): string {
  checkArguments(value, decimalPlaces);
  return decimalText(value, scaledRatio(Math.abs(value), decimalPlaces, ratio), decimalPlaces);
}

function checkArguments(value: number, decimalPlaces: number): void {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  if (!Number.isInteger(decimalPlaces) || decimalPlaces < 0 || decimalPlaces > MAX_DECIMALS) {
    throw new RangeError(`decimal places must be 0..${MAX_DECIMALS}: ${decimalPlaces}`);
  }
}

/** The text of a rounded magnitude `scaled` × 10^-places with the sign of `value`. */
function decimalText(value: number, scaled: string, decimalPlaces: number): string {
  if (scaled === '0') return decimalPlaces === 0 ? '0' : `0.${'0'.repeat(decimalPlaces)}`;
  const digits = scaled.padStart(decimalPlaces + 1, '0');
  const whole = digits.slice(0, digits.length - decimalPlaces);
  const fraction = digits.slice(digits.length - decimalPlaces);
  return `${value < 0 ? '-' : ''}${whole}${decimalPlaces > 0 ? `.${fraction}` : ''}`;
}

/** The same rounding as `formatDecimal`, as a number (for JSON number fields). */
export function roundDecimal(value: number, decimalPlaces: number): number {
  return Number(formatDecimal(value, decimalPlaces));
}

/** Panels' `display_value`: thousands separator and one decimal, `1,234.5`. */
export function displayValue(value: number): string {
  return groupThousands(formatDecimal(value, 1));
}

/** `value_fmt`: the value with its decimal places, grouped like display_value, then the unit: `1,234.567 m³`. */
export function formatWithUnit(value: number, decimalPlaces: number, unit: string): string {
  return withUnit(formatDecimal(value, decimalPlaces), unit);
}

/**
 * `value` and `value_fmt` of one number, rounded once: the same strings as
 * `formatDecimal` and `formatWithUnit` (a history answer has hundreds of them).
 */
export function decimalAndFormatted(value: number, decimalPlaces: number, unit: string): { value: string; value_fmt: string } {
  const decimal = formatDecimal(value, decimalPlaces);
  return { value: decimal, value_fmt: withUnit(decimal, unit) };
}

/** `value_fmt` of a decimal text already rounded: grouped like display_value, then the unit. */
export function withUnit(decimal: string, unit: string): string {
  const number = groupThousands(decimal);
  return unit === '' ? number : `${number} ${unit}`;
}

/** `data_points[].date`: the day's local midnight as the spec writes it. */
export function dataPointDate(date: string): string {
  return `${date} 00:00:00.000`;
}

/**
 * round(|value| × 10^places), half away from zero, exact on the decimal
 * digits, as decimal text. The 15 significant digits are an integer below
 * 10^15, so when the divisor is at most 10^15 (or the product stays below
 * 2^53) plain doubles compute it exactly; BigInt only beyond that.
 */
function scaledInteger(magnitude: number, places: number): string {
  const { digits, shift } = significantDigits(magnitude, places);
  if (shift < 0 && shift >= -15) {
    const divisor = POWERS_OF_TEN[-shift];
    // digits / divisor is rounded once; its floor is exact, as the true quotient is at least 1 / divisor below an integer.
    const quotient = Math.floor(digits / divisor);
    const rest = digits - quotient * divisor;
    return String(rest * 2 >= divisor ? quotient + 1 : quotient);
  }
  if (shift >= 0 && shift <= 15 && digits * POWERS_OF_TEN[shift] <= Number.MAX_SAFE_INTEGER) return String(digits * POWERS_OF_TEN[shift]);
  return scaledBigInt(BigInt(digits), shift);
}

/** |value| as `digits` × 10^(shift - places): its 15 significant digits as an integer below 10^15. */
function significantDigits(magnitude: number, places: number): { digits: number; shift: number } {
  // "d.dddddddddddddde±x": 15 significant digits.
  const text = magnitude.toExponential(14);
  const e = text.indexOf('e');
  return { digits: Number(text.slice(0, 1) + text.slice(2, e)), shift: Number(text.slice(e + 1)) - 14 + places };
}

/** round(|value| × ratio × 10^places), half away from zero, in integers only. */
function scaledRatio(magnitude: number, places: number, ratio: Ratio): string {
  const { digits, shift } = significantDigits(magnitude, places);
  const numerator = BigInt(digits) * ratio.numerator * (shift > 0 ? 10n ** BigInt(shift) : 1n);
  const denominator = ratio.denominator * (shift < 0 ? 10n ** BigInt(-shift) : 1n);
  const quotient = numerator / denominator;
  return ((numerator % denominator) * 2n >= denominator ? quotient + 1n : quotient).toString();
}

const POWERS_OF_TEN = Array.from({ length: 16 }, (_, i) => 10 ** i);

function scaledBigInt(digits: bigint, shift: number): string {
  if (shift >= 0) return (digits * 10n ** BigInt(shift)).toString();
  const divisor = 10n ** BigInt(-shift);
  const quotient = digits / divisor;
  return ((digits % divisor) * 2n >= divisor ? quotient + 1n : quotient).toString();
}

function groupThousands(decimal: string): string {
  const point = decimal.indexOf('.');
  if ((point === -1 ? decimal.length : point) <= (decimal[0] === '-' ? 4 : 3)) return decimal; // nothing to group
  const [whole, fraction] = decimal.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}
