import type { Interval } from '@meter/consumption';
import { DEVICE_COLUMNS, toDevice, type DeviceRow } from './devices/device-columns';
import { intervalsByChannel, PACKED_INTERVALS, RUNNING_TOTAL_AT } from './readings/reading-sql';
import type { DeviceRecord, Queryable } from './records';

export interface DeviceHistory {
  device: DeviceRecord;
  /** channel -> its intervals overlapping [from, to), as `intervalsOverlapping` */
  intervals: Map<number, Interval[]>;
  /** channel -> consumption inside the window, as `consumptionInWindow`; empty without a window */
  windowConsumption: Map<number, number>;
}

/**
 * Everything a history answer reads, in one round trip: the device, each
 * channel's intervals overlapping [from, to) and, given a window, each
 * channel's consumption inside it (the month projection). The same SQL as
 * `findDevices`, `intervalsOverlapping` and `consumptionInWindow`, so the
 * same numbers. Undefined when the organization has no such device.
 */
export async function deviceHistory(
  db: Queryable,
  orgId: string,
  deviceId: number,
  from: number,
  to: number,
  window?: { from: number; to: number },
): Promise<DeviceHistory | undefined> {
  const rows: (DeviceRow & { channel: number; packed: Buffer; consumed?: number })[] = await db.query(
    `SELECT ${DEVICE_COLUMNS}, c.channel, ${PACKED_INTERVALS('$3::timestamptz', '$4::timestamptz')} AS packed
       ${window ? `, (${RUNNING_TOTAL_AT('$6')}) - (${RUNNING_TOTAL_AT('$5')}) AS consumed` : ''}
     FROM ingest.devices d CROSS JOIN LATERAL generate_series(1, d.channels) AS c(channel)
     WHERE d.org_id = $1 AND d.device_id = $2`,
    [
      orgId,
      deviceId,
      new Date(from).toISOString(),
      new Date(to).toISOString(),
      ...(window ? [new Date(window.from).toISOString(), new Date(window.to).toISOString()] : []),
    ],
  );
  if (rows.length === 0) return undefined;
  const windowConsumption = new Map<number, number>();
  for (const r of rows) if (r.consumed !== undefined) windowConsumption.set(r.channel, r.consumed);
  return { device: toDevice(rows[0]), intervals: intervalsByChannel(rows), windowConsumption };
}
