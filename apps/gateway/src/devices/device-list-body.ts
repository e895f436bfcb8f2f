import type { DevicePage } from '../read-model/device-cache';
import type { DeviceList } from './devices.schemas';

/** Both list shapes in one object (DeviceList), serialised once per page. */
export function deviceListBody(page: DevicePage, nextPageToken: string | null): string {
  const body: DeviceList = {
    rows: page.devices.map((d) => ({ id: d.deviceId, name: d.name })),
    has_more: page.hasMore,
    next_page_token: nextPageToken,
    devices: page.devices.map((d) => ({ device_id: String(d.deviceId), activated_at: new Date(d.activatedAt).toISOString(), channels: d.channels })),
    next_cursor: nextPageToken,
  };
  return JSON.stringify(body);
}
