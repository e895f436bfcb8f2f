import { decimalAndFormatted, formatDecimal, formatDecimalTimes, formatWithUnit, roundDecimal, withUnit, type Ratio } from './format';
import { parseUnit, type Unit } from './unit';
import { conversionRatio } from './unit-conversion';

/**
 * How an answer writes volumes: in the device's unit, or converted to the
 * unit a request asked for. Values are converted at the moment they are
 * rounded for output, never before: the arithmetic stays in the device's unit.
 */
export interface VolumeFormat {
  /** the unit the answer names */
  unit: string;
  /** `formatDecimal` of the volume in `unit` */
  decimal(value: number, decimalPlaces: number): string;
  /** `roundDecimal` of the volume in `unit` (JSON number fields) */
  round(value: number, decimalPlaces: number): number;
  /** `value` and `value_fmt` (`decimalAndFormatted`) in `unit` */
  figures(value: number, decimalPlaces: number): { value: string; value_fmt: string };
  /** `formatWithUnit` in `unit` */
  withUnit(value: number, decimalPlaces: number): string;
}

/** Whether volumes of a device counting in `deviceUnit` can be written in `requested`. */
export function canWriteIn(deviceUnit: string, requested: Unit): boolean {
  return parseUnit(deviceUnit) !== undefined || deviceUnit === requested;
}

/**
 * Volumes of a device counting in `deviceUnit`, written in `requested` (absent:
 * in the device's unit, exactly as the formatting functions write them).
 * Throws RangeError when the device's unit is none of the five (check with `canWriteIn`).
 */
export function volumeFormat(deviceUnit: string, requested?: Unit): VolumeFormat {
  if (requested === undefined) return sameUnit(deviceUnit);
  const from = parseUnit(deviceUnit);
  if (from === undefined) {
    if (deviceUnit === requested) return sameUnit(deviceUnit);
    throw new RangeError(`a volume in ${JSON.stringify(deviceUnit)} converts to no other unit`);
  }
  return from === requested ? sameUnit(requested) : converted(requested, conversionRatio(from, requested));
}

function sameUnit(unit: string): VolumeFormat {
  return {
    unit,
    decimal: formatDecimal,
    round: roundDecimal,
    figures: (value, places) => decimalAndFormatted(value, places, unit),
    withUnit: (value, places) => formatWithUnit(value, places, unit),
  };
}

function converted(unit: Unit, ratio: Ratio): VolumeFormat {
  const decimal = (value: number, places: number) => formatDecimalTimes(value, places, ratio);
  return {
    unit,
    decimal,
    round: (value, places) => Number(decimal(value, places)),
    figures: (value, places) => {
      const text = decimal(value, places);
      return { value: text, value_fmt: withUnit(text, unit) };
    },
    withUnit: (value, places) => withUnit(decimal(value, places), unit),
  };
}
