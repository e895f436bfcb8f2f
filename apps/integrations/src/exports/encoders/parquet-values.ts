import { parseLocalDate } from '@meter/consumption';

const DAY_MS = 86_400_000;

/** The most digits a DECIMAL stored as INT64 holds (the Parquet format's limit for that type). */
export const INT64_DECIMAL_PRECISION = 18;

/** Parquet's DATE: days since 1970-01-01 of a `YYYY-MM-DD`. */
export function epochDay(date: string): number {
  const { year, month, day } = parseLocalDate(date);
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

/**
 * The unscaled integer of a decimal text at `scale` places, exactly, with no
 * binary floating point in between (`"1.25"` at 3 places is `1250n`): what a
 * DECIMAL column stores. Throws RangeError for text that is not a decimal,
 * has more places than `scale`, or needs more than 18 digits.
 */
export function unscaledDecimal(text: string, scale: number): bigint {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new RangeError(`not a decimal: ${JSON.stringify(text)}`);
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length > scale) throw new RangeError(`${text} has more than ${scale} decimal places`);
  const digits = `${whole}${fraction.padEnd(scale, '0')}`.replace(/^0+(?=\d)/, '');
  if (digits.length > INT64_DECIMAL_PRECISION) throw new RangeError(`${text} needs more than ${INT64_DECIMAL_PRECISION} digits`);
  const value = BigInt(digits);
  return sign ? -value : value;
}
