import { describe, expect, it } from 'vitest';
import { inDeviceUnit } from './device-unit';

const at = '2024-05-01T10:00:00Z';

describe('readings in the device unit', () => {
  it.each([
    [6.408, 'm³', 'L', '6408'],
    [6408, 'L', 'm³', '6.408'],
    [1, 'gal', 'L', '3.785411784'],
    [1, 'gal', 'm³', '0.003785411784'],
    [1, 'ft³', 'L', '28.316846592'],
    [1, 'CCF', 'ft³', '100'],
    [2.5, 'CCF', 'm³', '7.07921164800'.replace(/0+$/, '')],
    [1000, 'L', 'gal', '264.172052358148'],
  ] as const)('%s %s is %s %s exactly', (value, from, to, expected) => {
    expect(inDeviceUnit([{ read_at: at, value, channel: 1, unit: from }], to)).toEqual([{ read_at: at, value: expected, channel: 1 }]);
  });

  it('leaves a reading in the device unit, or in none (native), as it came', () => {
    expect(
      inDeviceUnit(
        [
          { read_at: at, value: '1.50', channel: 2, unit: 'L' },
          { read_at: at, value: 7, channel: 1 },
        ],
        'L',
      ),
    ).toEqual([
      { read_at: at, value: '1.50', channel: 2 },
      { read_at: at, value: 7, channel: 1 },
    ]);
  });
});
