import { notFound } from '@meter/http';
import type { Caller } from './caller';

/**
 * A credential's `device_ids` (contract section 13): outside them the
 * gateway answers as for a device the organization does not have: 404 on
 * single-device routes, NOT_FOUND in bulk and dashboard results, absent
 * from lists. Every route passes its ids through here before reading.
 */
export function canSee(caller: Caller, deviceId: number): boolean {
  return caller.deviceIds === undefined || caller.deviceIds.has(deviceId);
}

/** The 404 of a device the caller may not see, the same as an unknown device's. */
export function assertVisible(caller: Caller, deviceId: number): void {
  if (!canSee(caller, deviceId)) throw notFound(`device ${deviceId} not found`);
}

/** The ids among `deviceIds` the caller may see, in order. */
export function visibleIds(caller: Caller, deviceIds: readonly number[]): number[] {
  return caller.deviceIds === undefined ? [...deviceIds] : deviceIds.filter((id) => caller.deviceIds!.has(id));
}
