import type { DevicePage } from '../read-model/device-cache';

/** Contract 5: both list shapes of spec 2.2 in one object, serialised once per page. */
export function deviceListBody(page: DevicePage, nextPageToken: string | null): string {
  return JSON.stringify({
    rows: page.devices.map((d) => ({ id: d.deviceId, name: d.name })),
    has_more: page.hasMore,
    next_page_token: nextPageToken,
    devices: page.devices.map((d) => ({ device_id: String(d.deviceId), activated_at: new Date(d.activatedAt).toISOString(), channels: d.channels })),
    next_cursor: nextPageToken,
  });
}
