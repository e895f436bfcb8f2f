import { convertDecimal, type Unit } from '@meter/consumption';
import type { DecodedReading } from './uplink';

/** Decimal places of a converted register: exact for every factor between the platform's units at the registers meters send. */
export const CONVERTED_DECIMAL_PLACES = 12;

export interface BusReading {
  read_at: string;
  value: number | string;
  channel: number;
}

/**
 * Section 3's reading objects in the device's unit. A reading in another
 * unit is converted with the exact factors of the unit table (docs/consumption.md,
 * "Units"), rounded once to 12 decimal places, trailing zeros dropped; one in
 * the device's unit (or in none: native) goes unchanged.
 */
export function inDeviceUnit(readings: readonly DecodedReading[], deviceUnit: Unit): BusReading[] {
  return readings.map(({ read_at, value, channel, unit }) => {
    if (unit === undefined || unit === deviceUnit) return { read_at, value, channel };
    const converted = convertDecimal(Number(value), CONVERTED_DECIMAL_PLACES, unit, deviceUnit);
    return { read_at, value: converted.includes('.') ? converted.replace(/\.?0+$/, '') : converted, channel };
  });
}
