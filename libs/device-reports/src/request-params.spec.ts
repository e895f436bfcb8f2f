import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { deviceIdListParam } from './query-params';
import { checkQuery, ProblemException } from '@meter/http';
import { parseDeviceId, requestedZone } from './request-params';

/** A list parameter as GET /meter/v1/projection/bulk reads it. */
const parseDeviceIdList = (raw: unknown, field: string, max: number) => checkQuery(z.object({ [field]: deviceIdListParam(max) }), { [field]: raw })[field];

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
  it.each([
    ['1', 1],
    ['42', 42],
    ['9007199254740991', 9007199254740991],
  ])('device id %s', (raw, id) => expect(parseDeviceId(raw, 'device_id')).toBe(id));

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

  it('says whether a parameter is missing or repeated', () => {
    const message = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return (error as ProblemException).toProblem().errors?.[0]?.message;
      }
    };
    expect(message(() => parseDeviceId(undefined, 'device_id'))).toBe('is required');
    expect(message(() => parseDeviceId(['1', '2'], 'device_id'))).toBe('must be given once');
    expect(message(() => parseDeviceId('x', 'device_id'))).toBe('must be a positive integer');
    expect(message(() => parseDeviceIdList(undefined, 'device_ids', 100))).toMatch(/^is required: /);
    expect(message(() => parseDeviceIdList(['1', '2'], 'device_ids', 100))).toMatch(/^must be given once: /);
    expect(message(() => parseDeviceIdList(' ', 'device_ids', 100))).toMatch(/^is required: /);
  });

  it('parses 1..max comma-separated ids, keeping order and repeats', () => {
    expect(parseDeviceIdList('3,1, 2,3', 'device_ids', 100)).toEqual([3, 1, 2, 3]);
    for (const raw of [undefined, '', ' ', '1,,2', '1,x', '1;2', '0']) expect(field(() => parseDeviceIdList(raw, 'device_ids', 100))).toBe('device_ids');
    expect(field(() => parseDeviceIdList('1,2,3', 'device_ids', 2))).toBe('device_ids');
  });
});
