import { Inject, Injectable } from '@nestjs/common';
import { projectionWindow } from '@meter/consumption';
import { deviceProjection, type DeviceProjection } from '@meter/device-reports';
import type { DeviceRecord } from '@meter/read-model';
import { Clock } from '../clock/clock';
import { ReadModel } from '../read-model/read-model';

export { deviceProjection, type DeviceProjection } from '@meter/device-reports';

/**
 * The month projection (docs/consumption.md) for many devices at once: the window's consumption
 * is summed in SQL, one query per time zone in effect, and turned into the
 * projection by the consumption library, so the three projection routes,
 * history and the dashboard show the same numbers.
 */
@Injectable()
export class MonthProjectionService {
  constructor(
    @Inject(ReadModel) private readonly readModel: ReadModel,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  /** `now`: the caller's instant when it computes more from the same one (the dashboard); else the clock's. */
  async project(
    orgId: string,
    devices: readonly DeviceRecord[],
    zoneOverride: string | undefined,
    now = this.clock.now(),
  ): Promise<Map<number, DeviceProjection>> {
    const byZone = new Map<string, DeviceRecord[]>();
    for (const device of devices) {
      const zone = zoneOverride ?? device.timeZone;
      byZone.set(zone, [...(byZone.get(zone) ?? []), device]);
    }
    const result = new Map<number, DeviceProjection>();
    for (const [zone, group] of byZone) {
      const window = projectionWindow(now, zone);
      const sums = await this.readModel.consumption(
        orgId,
        group.map((d) => d.deviceId),
        window.from,
        window.to,
      );
      for (const device of group) result.set(device.deviceId, deviceProjection(device, zone, window, sums.get(device.deviceId) ?? new Map()));
    }
    return result;
  }
}
