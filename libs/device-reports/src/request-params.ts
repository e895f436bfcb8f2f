import { isValidTimeZone } from '@meter/consumption';
import { validationFailed } from '@meter/http';

/** Why a query parameter that must be one string is not: absent, or given more than once (`?a=1&a=2`). */
export function notOneValue(raw: unknown): string {
  return Array.isArray(raw) ? 'must be given once' : 'is required';
}

/** Device ids are positive integers that a JS number holds exactly. */
export function parseDeviceId(raw: unknown, field: string): number {
  if (typeof raw !== 'string' || !/^[1-9][0-9]{0,15}$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw validationFailed([{ field, message: raw === undefined || Array.isArray(raw) ? notOneValue(raw) : 'must be a positive integer' }]);
  }
  return Number(raw);
}

/** `X-Timezone`: absent -> the device's zone; present, it must be an IANA name. */
export function requestedZone(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header[0] : header;
  if (Array.isArray(header) && header.length > 1) throw validationFailed([{ field: 'X-Timezone', message: 'must be sent once' }]);
  if (!isValidTimeZone(value)) throw validationFailed([{ field: 'X-Timezone', message: 'must be an IANA time zone name such as Europe/Madrid' }]);
  return value;
}

/** A comma-separated list of 1..max device ids. */
export function parseDeviceIdList(raw: unknown, field: string, max: number): number[] {
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw validationFailed([{ field, message: `${typeof raw === 'string' ? 'is required' : notOneValue(raw)}: a comma-separated list of device ids` }]);
  }
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length > max) throw validationFailed([{ field, message: `must list at most ${max} device ids` }]);
  return parts.map((part, i) => {
    try {
      return parseDeviceId(part, field);
    } catch {
      throw validationFailed([{ field, message: `item ${i + 1} (${JSON.stringify(part.slice(0, 20))}) must be a positive integer` }]);
    }
  });
}
