import { describe, expect, it } from 'vitest';
import { ProblemException } from '@meter/http';
import { parseDeviceId, parseDeviceIdList, requestedZone } from './request-params';

const field = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ProblemException);
    return (error as ProblemException).toProblem().errors?.[0]?.field;
  }
  throw new Error('did not throw');
};

describe('request parameters', () => {
  it.each([['1', 1], ['42', 42], ['9007199254740991', 9007199254740991]])('device id %s', (raw, id) => expect(parseDeviceId(raw, 'device_id')).toBe(id));

  it.each([undefined, '', '0', '-1', '1.5', 'abc', '01', '9007199254740992', ['1', '2']])('refuses device id %j', (raw) =>
    expect(field(() => parseDeviceId(raw, 'device_id'))).toBe('device_id'),
  );

  it('takes an absent X-Timezone as "use the device zone" and accepts IANA names as sent', () => {
    expect(requestedZone(undefined)).toBeUndefined();
    expect(requestedZone('Asia/Kathmandu')).toBe('Asia/Kathmandu');
    expect(requestedZone('utc')).toBe('utc');
  });

  it.each(['', '+05:30', 'Mars/Olympus', 'UTC, UTC', 'Europe/Madrid '])('refuses X-Timezone %j', (zone) =>
    expect(field(() => requestedZone(zone))).toBe('X-Timezone'),
  );

  it('parses 1..max comma-separated ids, keeping order and repeats', () => {
    expect(parseDeviceIdList('3,1, 2,3', 'device_ids', 100)).toEqual([3, 1, 2, 3]);
    for (const raw of [undefined, '', ' ', '1,,2', '1,x', '1;2', '0']) expect(field(() => parseDeviceIdList(raw, 'device_ids', 100))).toBe('device_ids');
    expect(field(() => parseDeviceIdList('1,2,3', 'device_ids', 2))).toBe('device_ids');
  });
});
