import type { EpisodeRow, FleetDevice, LatestReading } from '@meter/read-model';
import { episodeView } from '@meter/read-model';
import type { FleetDeviceView } from './fleet.schemas';

/** A device row of the fleet list: its record, its newest reading of any channel and its open episodes. */
export function fleetDeviceView(device: FleetDevice, latest: readonly LatestReading[], open: readonly EpisodeRow[]): FleetDeviceView {
  const newest = latest.reduce<LatestReading | undefined>((best, r) => (best === undefined || r.readAt > best.readAt ? r : best), undefined);
  return {
    device_id: device.deviceId,
    name: device.name,
    unit: device.unit,
    time_zone: device.timeZone,
    channels: device.channels,
    activated_at: new Date(device.activatedAt).toISOString(),
    external_ids: device.externalIds,
    last_reading: newest
      ? { channel: newest.channel, read_at: new Date(newest.readAt).toISOString(), value: newest.value.toFixed(device.decimalPlaces) }
      : null,
    open_alerts: open.map(episodeView),
  };
}
