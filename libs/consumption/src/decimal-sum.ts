/**
 * Exact sums and differences of decimal texts as `formatDecimal` writes them
 * ("12.345", "0", "-1.5"): scaled to integers, added, written back with
 * `decimalPlaces`. Rounded values added this way add up to the digit, which
 * binary floats do not promise.
 */
export function addDecimals(terms: readonly string[], decimalPlaces: number): string {
  let total = 0n;
  for (const term of terms) total += scaled(term, decimalPlaces);
  return unscaled(total, decimalPlaces);
}

/** `minuend - subtrahend`, exactly (see addDecimals). */
export function subtractDecimals(minuend: string, subtrahend: string, decimalPlaces: number): string {
  return unscaled(scaled(minuend, decimalPlaces) - scaled(subtrahend, decimalPlaces), decimalPlaces);
}

const DECIMAL = /^(-?)([0-9]+)(?:\.([0-9]+))?$/;

function scaled(text: string, decimalPlaces: number): bigint {
  const match = DECIMAL.exec(text);
  if (!match) throw new RangeError(`not a decimal text: ${JSON.stringify(text)}`);
  const [, sign, whole, fraction = ''] = match;
  if (fraction.length > decimalPlaces) throw new RangeError(`${text} has more than ${decimalPlaces} decimal places`);
  const magnitude = BigInt(whole + fraction.padEnd(decimalPlaces, '0'));
  return sign === '-' ? -magnitude : magnitude;
}

function unscaled(value: bigint, decimalPlaces: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(decimalPlaces + 1, '0');
  const whole = digits.slice(0, digits.length - decimalPlaces);
  const fraction = digits.slice(digits.length - decimalPlaces);
  return `${negative ? '-' : ''}${whole}${decimalPlaces > 0 ? `.${fraction}` : ''}`;
}
