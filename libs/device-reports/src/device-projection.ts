import { effectiveTariff, projectionFromConsumption, type Projection, type ProjectionWindow } from '@meter/consumption';
import type { DeviceRecord } from '@meter/read-model';

export interface DeviceProjection {
  device: DeviceRecord;
  zone: string;
  window: ProjectionWindow;
  /** all channels together: the projection routes */
  total: Projection;
  /** channel -> projection: history series and dashboard panels */
  channels: Map<number, Projection>;
}

/**
 * The projection of one device from each channel's consumption in the window (a channel without a sum consumed 0).
 * The device's tariff prices the month of all channels together (`total`); no answer shows a channel's cost.
 */
export function deviceProjection(device: DeviceRecord, zone: string, window: ProjectionWindow, perChannel: ReadonlyMap<number, number>): DeviceProjection {
  const channels = new Map<number, Projection>();
  const tariff = effectiveTariff(device);
  let total = 0;
  for (let channel = 1; channel <= device.channels; channel++) {
    const consumed = perChannel.get(channel) ?? 0;
    total += consumed;
    channels.set(channel, projectionFromConsumption(window, consumed, tariff));
  }
  return { device, zone, window, channels, total: projectionFromConsumption(window, total, tariff) };
}
