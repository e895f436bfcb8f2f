import type { DeviceRecord } from '@meter/read-model';

/** "Kitchen" for a one-channel device, "Kitchen – channel 2" when it has several. */
export function seriesLabel(device: DeviceRecord, channel: number): string {
  return device.channels > 1 ? `${device.name} – channel ${channel}` : device.name;
}
