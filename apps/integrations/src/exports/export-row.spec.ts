import { describe, expect, it } from 'vitest';
import { intervalsFromReadings, localDay } from '@meter/consumption';
import type { ChannelDay } from '@meter/read-model';
import { exportRow } from './export-row';

const at = (iso: string) => Date.parse(iso);
const channelOf = (readings: [string, number][], extra: Partial<ChannelDay> = {}): ChannelDay => ({
  deviceId: 7,
  channel: 1,
  unit: 'm³',
  decimalPlaces: 3,
  intervals: intervalsFromReadings(readings.map(([t, value]) => ({ readAt: at(t), value }))),
  raised: [],
  ...extra,
});

describe('exportRow', () => {
  const day = localDay('2026-03-10', 'UTC');

  it('writes the day value, the registers at both ends and ACTUAL quality', () => {
    const row = exportRow(
      channelOf(
        [
          ['2026-03-09T23:00:00Z', 10],
          ['2026-03-10T12:00:00Z', 12.3],
          ['2026-03-11T01:00:00Z', 13.6],
        ],
        {
          startBefore: { readAt: at('2026-03-09T23:00:00Z'), value: 10 },
          startAfter: { readAt: at('2026-03-10T12:00:00Z'), value: 12.3, reset: false },
          endBefore: { readAt: at('2026-03-10T12:00:00Z'), value: 12.3 },
          endAfter: { readAt: at('2026-03-11T01:00:00Z'), value: 13.6, reset: false },
        },
      ),
      day,
    );
    expect(row).toEqual({
      device_id: 7,
      channel: 1,
      date: '2026-03-10',
      consumption: '3.323',
      unit: 'm³',
      register_start: '10.177',
      register_end: '13.500',
      alerts: null,
      quality: 'ACTUAL',
    });
  });

  it('writes a day without data as "0", NO_DATA, MISSING and no registers', () => {
    expect(exportRow(channelOf([]), day)).toMatchObject({ consumption: '0', register_start: null, register_end: null, alerts: 'NO_DATA', quality: 'MISSING' });
  });

  it('marks a day inside a gap of more than 24 h as ESTIMATED', () => {
    const row = exportRow(
      channelOf([
        ['2026-03-09T00:00:00Z', 0],
        ['2026-03-12T00:00:00Z', 3],
      ]),
      day,
    );
    expect(row).toMatchObject({ consumption: '1.000', alerts: null, quality: 'ESTIMATED' });
  });

  it('lists REGISTER_RESET among the alerts', () => {
    const row = exportRow(
      channelOf([
        ['2026-03-10T01:00:00Z', 500],
        ['2026-03-10T02:00:00Z', 501],
        ['2026-03-10T03:00:00Z', 1],
        ['2026-03-11T00:00:00Z', 2],
      ]),
      day,
    );
    expect(row).toMatchObject({ consumption: '2.000', alerts: 'REGISTER_RESET' });
  });

  it("lists the codes of the alert episodes raised that day after the day's own, as the history day does", () => {
    const raised = [
      { code: 'LEAK' as const, raisedAt: at('2026-03-10T08:00:00Z'), message: 'continuous flow' },
      { code: 'TAMPER' as const, raisedAt: at('2026-03-10T09:00:00Z'), message: 'tamper' },
      { code: 'LEAK' as const, raisedAt: at('2026-03-10T20:00:00Z'), message: 'again' },
    ];
    const row = exportRow(
      channelOf(
        [
          ['2026-03-10T10:00:00Z', 5],
          ['2026-03-10T11:00:00Z', 1],
        ],
        { raised },
      ),
      day,
    );
    expect(row.alerts).toBe('REGISTER_RESET|LEAK|TAMPER');
    expect(exportRow(channelOf([], { raised }), day).alerts).toBe('NO_DATA|LEAK|TAMPER');
  });
});
