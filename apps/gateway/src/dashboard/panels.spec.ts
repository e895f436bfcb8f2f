import { describe, expect, it } from 'vitest';
import type { Projection } from '@meter/consumption';
import { deviceRecord } from '@meter/testing/device-record';
import { channelPanels } from './panels';

const projection = (fields: Partial<Projection>): Projection => ({
  days_used_for_calculation: 20,
  total_days_in_month: 30,
  average_daily_consumption: 0,
  projected_value: 0,
  projected_cost: 0,
  calculation_date: '2026-11-21',
  projection_date: '2026-11-30',
  ...fields,
});

describe('channelPanels', () => {
  it.each<[number, number, number, string]>([
    // decimal places, the unrounded figure, value, display_value
    [0, 46515.5, 46516, '46,516.0'],
    [0, 67522.5, 67523, '67,523.0'],
    [3, 0.0495, 0.05, '0.1'],
    [3, 1.5495, 1.55, '1.6'],
    [3, 1234.5678, 1234.568, '1,234.6'],
  ])('with %i decimal places, %s is value %s and display_value %j: the value formatted', (places, figure, value, display) => {
    const panels = channelPanels(deviceRecord(1, { decimalPlaces: places }), 'UTC', {
      channel: 1,
      monthToDate: figure,
      monthCovered: true,
      monthResets: false,
      projection: projection({ average_daily_consumption: figure, projected_value: figure }),
      latest: { deviceId: 1, channel: 1, readAt: Date.UTC(2026, 10, 21, 9), value: figure },
      openAlerts: [],
    });
    expect(panels.map((p) => p.type)).toEqual(['CURRENT_CONSUMPTION', 'DAILY_ESTIMATE', 'LAST_READING', 'MONTHLY_PROJECTION']);
    for (const panel of panels) expect({ type: panel.type, value: panel.value, display: panel.display_value }).toEqual({ type: panel.type, value, display });
  });

  it("every panel of a channel shows the channel's open alert episodes after its own alerts", () => {
    const leak = { code: 'LEAK' as const, message: 'a leak is likely' };
    const panels = channelPanels(deviceRecord(1), 'UTC', {
      channel: 1,
      monthToDate: 1,
      monthCovered: false,
      monthResets: false,
      projection: projection({}),
      latest: undefined,
      openAlerts: [leak],
    });
    expect(panels.map((p) => p.alerts.map((a) => a.code))).toEqual([['NO_DATA', 'LEAK'], ['LEAK'], ['NO_DATA', 'LEAK'], ['LEAK']]);
  });
});
