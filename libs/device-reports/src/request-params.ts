import { z } from 'zod';
import { isValidTimeZone } from '@meter/consumption';
import { checkQuery, validationFailed } from '@meter/http';
import { deviceIdParam } from './query-params';

const deviceIdParams = new Map<string, z.ZodType<Record<string, number>>>();

/** A device id given as a path parameter (`/devices/{id}`): its number, or 400 naming `field`. */
export function parseDeviceId(raw: unknown, field: string): number {
  let schema = deviceIdParams.get(field);
  if (!schema) deviceIdParams.set(field, (schema = z.object({ [field]: deviceIdParam })));
  return checkQuery(schema, { [field]: raw })[field];
}

/** `X-Timezone`: absent -> the device's zone; present, it must be an IANA name. */
export function requestedZone(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header[0] : header;
  if (Array.isArray(header) && header.length > 1) throw validationFailed([{ field: 'X-Timezone', message: 'must be sent once' }]);
  if (!isValidTimeZone(value)) throw validationFailed([{ field: 'X-Timezone', message: 'must be an IANA time zone name such as Europe/Madrid' }]);
  return value;
}
