import { describe, expect, it } from 'vitest';
import { readReadingMessage, readingMessageItemOf } from './reading-message-reader';
import { readingMessage } from './readings';

/** Both readers on one payload: the same verdict and, when accepted, the same items. */
function compare(payload: unknown) {
  const schema = readingMessage.safeParse(payload);
  const fast = readReadingMessage(payload, readingMessageItemOf);
  return { schema: schema.success ? schema.data : 'refused', fast: fast ?? 'refused' };
}

const READ_ATS: unknown[] = [
  '2026-03-01T10:00:00Z',
  '2026-03-01t10:00:00z',
  '2026-03-01T10:00:00z',
  '2026-03-01t10:00:00Z',
  '2026-03-01T10:00:00.5Z',
  '2026-03-01T10:00:00.123456789Z',
  '2026-03-01T10:00:00.1234567891Z',
  '2026-03-01T10:00:00+05:30',
  '2026-03-01T10:00:00-11:00',
  '2026-03-01T10:00:00+23:59',
  '2026-03-01T10:00:00+24:00',
  '2026-03-01T10:00:00+05:60',
  '2026-03-01T10:00:00+99:99',
  '2026-03-01T10:00:00',
  '2026-03-01 10:00:00Z',
  '2026-03-01T10:00Z',
  ' 2026-03-01T10:00:00Z',
  '2026-03-01T10:00:00Z ',
  '2024-02-29T00:00:00Z',
  '2026-02-29T00:00:00Z',
  '2026-02-30T12:00:00Z',
  '2026-04-31T00:00:00Z',
  '2026-12-31T23:59:59Z',
  '2026-01-31T23:59:59.999Z',
  '2026-03-01T24:00:00Z',
  '2026-03-01T23:60:00Z',
  '2026-03-01T23:59:60Z',
  '2026-13-01T00:00:00Z',
  '2026-00-10T00:00:00Z',
  '2026-03-00T00:00:00Z',
  '2026-03-32T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '1900-02-29T00:00:00Z',
  '2000-02-29T00:00:00+14:00',
  '２026-03-01T10:00:00Z',
  '',
  1_772_359_200_000,
  null,
  true,
  undefined,
  {},
];

const VALUES: unknown[] = [
  0,
  -0,
  1,
  1234.567,
  1e15 - 1,
  1e15,
  -1,
  -0.001,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.MAX_VALUE,
  '0',
  '1234.567',
  '000123.000',
  '999999999999999',
  '999999999999999.999999999999999',
  '1000000000000000',
  '1.',
  '.5',
  '-1',
  '+1',
  '1e3',
  ' 1',
  '1 ',
  '0x10',
  '1,5',
  '',
  '١٢',
  null,
  true,
  undefined,
  [1],
  { value: 1 },
];

const CHANNELS: unknown[] = [undefined, 1, 2, 64, 65, 0, -1, 1.5, 1.0, '1', null, Number.NaN, true, 2 ** 53, [1]];

describe('readReadingMessage against the readingMessage schema', () => {
  it.each(READ_ATS.map((readAt) => [readAt]))('read_at %j', (readAt) => {
    const { schema, fast } = compare({ read_at: readAt, value: '1.5' });
    expect(fast).toEqual(schema);
  });

  it.each(VALUES.map((value) => [value]))('value %j', (value) => {
    const { schema, fast } = compare([{ read_at: '2026-03-01T10:00:00Z', value }]);
    expect(fast).toEqual(schema);
  });

  it.each(CHANNELS.map((channel) => [channel]))('channel %j', (channel) => {
    const { schema, fast } = compare([{ read_at: '2026-03-01T10:00:00Z', value: 2, channel }]);
    expect(fast).toEqual(schema);
  });

  it('every combination of read_at, value and channel', () => {
    let accepted = 0;
    for (const read_at of READ_ATS)
      for (const value of VALUES)
        for (const channel of CHANNELS) {
          const item = channel === undefined ? { read_at, value } : { read_at, value, channel };
          const { schema, fast } = compare([item]);
          expect(fast, JSON.stringify(item)).toEqual(schema);
          if (schema !== 'refused') accepted += 1;
        }
    // both accept and refuse a good share of the table
    expect(accepted).toBeGreaterThan(500);
    expect(accepted).toBeLessThan((READ_ATS.length * VALUES.length * CHANNELS.length) / 2);
  });

  const item = { read_at: '2026-03-01T10:00:00Z', value: '1.000' };
  it.each([
    ['one item, not in an array', item],
    ['an empty array', []],
    ['1 item', [item]],
    ['1000 items', Array.from({ length: 1000 }, () => item)],
    ['1001 items', Array.from({ length: 1001 }, () => item)],
    ['null', null],
    ['a string', 'x'],
    ['a number', 5],
    ['true', true],
    ['undefined', undefined],
    ['a nested array', [[item]]],
    ['a null item', [item, null]],
    ['an array item', [item, []]],
    ['a string item', [item, 'x']],
    ['extra keys, which are dropped', [{ ...item, unit: 'm3', channel: 3, extra: { a: 1 } }]],
    ['a later bad item', [item, item, { ...item, value: '-1' }]],
    ['the same key twice, as JSON.parse leaves it', JSON.parse('[{"read_at":"2026-03-01T10:00:00Z","value":"x","value":"2.5"}]')],
    ['an item without read_at', [{ value: 1 }]],
    ['an item without value', [{ read_at: item.read_at }]],
    ['a __proto__ key from JSON', JSON.parse('[{"read_at":"2026-03-01T10:00:00Z","value":1,"__proto__":{"channel":5}}]')],
    [
      'a sparse array',
      (() => {
        const list: unknown[] = [item];
        list[2] = item;
        return list;
      })(),
    ],
  ])('%s', (_name, payload) => {
    const { schema, fast } = compare(payload);
    expect(fast).toEqual(schema);
  });
});
