import { canWriteIn, parseUnit, UNITS, volumeFormat, type Unit, type VolumeFormat } from '@meter/consumption';
import { validationFailed } from '@meter/http';
import type { DeviceRecord } from '@meter/read-model';

/** What `X-Unit` accepts, as its 400 says. */
export const X_UNIT_VALUES = `${UNITS.join(', ')} (in ASCII also m3 and ft3; any letter case)`;

/**
 * `X-Unit` on the consumption routes: absent -> the device's own unit;
 * present, one of the five units. Header bytes reach Node as latin1, so `m³`
 * arrives as `m\u00b3` when sent in ISO-8859-1 and as `m\u00c2\u00b3` when sent
 * in UTF-8 (curl from a UTF-8 terminal): both are read, as are the ASCII
 * spellings. Anything else is a 400 naming the header.
 */
export function requestedUnit(header: string | string[] | undefined): Unit | undefined {
  if (header === undefined) return undefined;
  if (Array.isArray(header) && header.length > 1) throw validationFailed([{ field: 'X-Unit', message: 'must be sent once' }]);
  const value = Array.isArray(header) ? header[0] : header;
  const unit = parseUnit(value) ?? parseUnit(Buffer.from(value, 'latin1').toString('utf8'));
  if (unit === undefined) throw validationFailed([{ field: 'X-Unit', message: `must be one of ${X_UNIT_VALUES}` }]);
  return unit;
}

/** How an answer writes a device's volumes: in its own unit, or in the one `X-Unit` asked for. */
export function deviceVolumes(device: DeviceRecord, unit: Unit | undefined): VolumeFormat {
  if (unit !== undefined && !canWriteIn(device.unit, unit)) {
    // Only a device registered before units were checked can count in another unit.
    throw validationFailed([{ field: 'X-Unit', message: `device ${device.deviceId} counts in ${device.unit}, which converts to no other unit` }]);
  }
  return volumeFormat(device.unit, unit);
}
