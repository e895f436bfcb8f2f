import { describe, expect, it } from 'vitest';
import type { DeviceRecord } from '@meter/read-model';
import { deviceRecord } from '@meter/testing/device-record';
import { deviceListBody } from './device-list-body';

const device = (deviceId: number, name: string, activatedAt: number, channels: number): DeviceRecord => deviceRecord(deviceId, { name, activatedAt, channels });

describe('deviceListBody', () => {
  it('writes both list shapes (devices and items) with the same token in both', () => {
    const page = { devices: [device(3, 'Garden', Date.UTC(2026, 0, 2, 3, 4, 5, 6), 2), device(10, 'Kitchen "hot"', 0, 1)], hasMore: true };
    expect(JSON.parse(deviceListBody(page, 'tok.en'))).toEqual({
      rows: [
        { id: 3, name: 'Garden' },
        { id: 10, name: 'Kitchen "hot"' },
      ],
      has_more: true,
      next_page_token: 'tok.en',
      devices: [
        { device_id: '3', activated_at: '2026-01-02T03:04:05.006Z', channels: 2 },
        { device_id: '10', activated_at: '1970-01-01T00:00:00.000Z', channels: 1 },
      ],
      next_cursor: 'tok.en',
    });
  });

  it('an empty last page has null tokens', () => {
    expect(JSON.parse(deviceListBody({ devices: [], hasMore: false }, null))).toEqual({
      rows: [],
      has_more: false,
      next_page_token: null,
      devices: [],
      next_cursor: null,
    });
  });
});
