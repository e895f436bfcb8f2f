import { describe, expect, it } from 'vitest';
import { intervalsFromReadings } from '@meter/consumption';
import { deviceLockKeys, latestPerKey, monthsOf, visitIntervals, type ReadingRow } from './reading-batch';

/** What `visitIntervals` reports, one object per reading, in the order it visits them. */
function planIntervals(rows: readonly ReadingRow[]) {
  const planned: (ReadingRow & { prevReadAt: number | null; delta: number; reset: boolean; cum: number })[] = [];
  visitIntervals(rows, new Map(), (r, prevReadAt, delta, reset, cum) => planned.push({ ...r, prevReadAt, delta, reset, cum }));
  return planned;
}

const row = (over: Partial<ReadingRow>): ReadingRow => ({ orgId: 'o', deviceId: 1, channel: 1, readAt: 0, value: 0, seq: 1, ...over });

describe('latestPerKey', () => {
  it.each([
    ['a later sequence wins', [row({ value: 1, seq: 1 }), row({ value: 2, seq: 2 })], [2]],
    ['an earlier sequence arriving later loses', [row({ value: 2, seq: 2 }), row({ value: 1, seq: 1 })], [2]],
    ['within one message the later item wins', [row({ value: 1 }), row({ value: 3 })], [3]],
    ['different channels are different readings', [row({ value: 1 }), row({ value: 3, channel: 2 })], [1, 3]],
    ['different devices are different readings', [row({ value: 1 }), row({ value: 3, deviceId: 2 })], [1, 3]],
    [
      'a repeat after other readings still replaces the first',
      [row({ readAt: 1, value: 1 }), row({ readAt: 2, value: 2 }), row({ readAt: 1, value: 3, seq: 2 }), row({ readAt: 3, value: 4 })],
      [3, 2, 4],
    ],
    [
      'devices interleaved keep their own order',
      [row({ readAt: 2, value: 1 }), row({ deviceId: 2, readAt: 1, value: 2 }), row({ readAt: 1, value: 3 }), row({ deviceId: 2, readAt: 2, value: 4 })],
      [1, 3, 2, 4],
    ],
    // 2^44 ms after 1970 on channel 1 is the same number as 1970 on channel 2 in a channel x 2^44 + ms key
    ['channels far apart in time stay apart', [row({ channel: 1, readAt: 2 ** 44, value: 1 }), row({ channel: 2, readAt: 0, value: 2 })], [1, 2]],
    [
      'channels before 1970 stay apart',
      [row({ channel: 2, readAt: Date.UTC(1469, 0, 1), value: 1 }), row({ channel: 1, readAt: Date.UTC(1469, 0, 1) + 2 ** 44, value: 2 })],
      [1, 2],
    ],
    ['times before 1970 repeat like any other', [row({ readAt: -5, value: 1 }), row({ readAt: -5, value: 2, seq: 2 }), row({ readAt: -5, value: 0 })], [2]],
  ])('%s', (_name, rows, values) => {
    expect(latestPerKey(rows).map((r) => r.value)).toEqual(values);
  });
});

describe('visitIntervals', () => {
  it('computes in-batch intervals like the consumption library, per channel, with resets', () => {
    const times = [5, 1, 3, 2, 4];
    const values = [9, 1, 2, 1.5, 0.5];
    const rows = times.map((t, i) => row({ readAt: t * 1000, value: values[i] }));
    const planned = planIntervals([...rows, row({ channel: 2, readAt: 1000, value: 7 })]);
    const channel1 = planned.filter((p) => p.channel === 1 && p.prevReadAt !== null);
    const expected = intervalsFromReadings(rows.map((r) => ({ readAt: r.readAt, value: r.value })));
    expect(channel1.map((p) => ({ start: p.prevReadAt, end: p.readAt, delta: p.delta, reset: p.reset }))).toEqual(expected);
    expect(planned.filter((p) => p.prevReadAt === null).map((p) => p.channel)).toEqual([1, 2]);
  });
});

describe('monthsOf and deviceLockKeys', () => {
  it('finds the UTC months of readings, once each, in order', () => {
    expect(monthsOf([Date.UTC(2026, 2, 31, 23), Date.UTC(2026, 0, 5), Date.UTC(2026, 2, 1)])).toEqual([Date.UTC(2026, 0, 1), Date.UTC(2026, 2, 1)]);
  });
  it('gives one sorted key per device', () => {
    expect(deviceLockKeys([row({ deviceId: 2 }), row({ deviceId: 1 }), row({ deviceId: 2 }), row({ orgId: 'a', deviceId: 9 })])).toEqual(['a:9', 'o:1', 'o:2']);
  });
});
