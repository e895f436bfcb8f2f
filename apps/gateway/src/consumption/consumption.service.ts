import { Inject, Injectable } from '@nestjs/common';
import { consumptionPoints, resolveConsumptionWindow, rfc3339InZone, type Unit } from '@meter/consumption';
import { validationFailed } from '@meter/http';
import { ReadModel } from '../read-model/read-model';
import { deviceVolumes } from '../units/x-unit';
import type { IntervalConsumption } from './consumption.schemas';

interface ConsumptionRequest {
  deviceId: number;
  channel: number;
  from: string;
  to: string;
  interval: string;
}

/** Consumption per 15 minutes, hour, local day or local month of one channel (contract section 13). */
@Injectable()
export class ConsumptionService {
  constructor(@Inject(ReadModel) private readonly readModel: ReadModel) {}

  /** `zoneOverride`: X-Timezone; `unit`: X-Unit (absent: the device's). */
  async consumption(orgId: string, request: ConsumptionRequest, zoneOverride: string | undefined, unit?: Unit): Promise<IntervalConsumption> {
    const zone = zoneOverride ?? (await this.readModel.device(orgId, request.deviceId)).timeZone;
    const resolved = resolveConsumptionWindow(request.interval, request.from, request.to, zone);
    if (!resolved.ok) {
      if (zoneOverride !== undefined) await this.readModel.device(orgId, request.deviceId); // an unknown device is a 404 before a bad window
      throw validationFailed([{ field: resolved.field, message: resolved.message }]);
    }
    const { window } = resolved;
    // Whole days: a point's value counts from its day's midnight, and a day's last point ends on the day's own value.
    const read = await this.readModel.history(orgId, request.deviceId, window.days[0].start, window.days[window.days.length - 1].end);
    const { device } = read;
    if (request.channel > device.channels) {
      throw validationFailed([{ field: 'channel', message: `device ${device.deviceId} has ${device.channels} channel${device.channels === 1 ? '' : 's'}` }]);
    }
    const volumes = deviceVolumes(device, unit);
    const points = consumptionPoints(read.intervals.get(request.channel) ?? [], window, volumes.decimal, device.decimalPlaces);
    return {
      device_id: device.deviceId,
      channel: request.channel,
      time_zone: zone,
      unit: volumes.unit,
      interval: request.interval as IntervalConsumption['interval'],
      from: rfc3339InZone(window.from, zone),
      to: rfc3339InZone(window.to, zone),
      points: points.map((p) => ({ start: rfc3339InZone(p.start, zone), end: rfc3339InZone(p.end, zone), value: p.value, quality: p.quality })),
    };
  }
}
