import { describe, expect, it } from 'vitest';
import { decimalAndFormatted, formatDecimal, formatWithUnit, roundDecimal } from './format';
import { canWriteIn, volumeFormat } from './volume-format';

describe('volumeFormat', () => {
  it("writes the device's unit exactly as the formatting functions do, absent or asked for by name", () => {
    for (const format of [volumeFormat('m³'), volumeFormat('m³', 'm³'), volumeFormat('m3', 'm³')]) {
      expect(format.unit).toBe('m³');
      for (const value of [0, 1234.5675, 0.1 + 0.2, 12]) {
        expect(format.decimal(value, 3)).toBe(formatDecimal(value, 3));
        expect(format.round(value, 3)).toBe(roundDecimal(value, 3));
        expect(format.figures(value, 3)).toEqual(decimalAndFormatted(value, 3, 'm³'));
        expect(format.withUnit(value, 3)).toBe(formatWithUnit(value, 3, 'm³'));
      }
    }
    expect(volumeFormat('kWh').unit).toBe('kWh');
  });

  it('converts every figure of a volume to the unit asked for', () => {
    const gallons = volumeFormat('m³', 'gal');
    expect(gallons.unit).toBe('gal');
    expect(gallons.decimal(12, 3)).toBe('3170.065');
    expect(gallons.round(12, 3)).toBe(3170.065);
    expect(gallons.figures(12, 3)).toEqual({ value: '3170.065', value_fmt: '3,170.065 gal' });
    expect(gallons.figures(0, 0)).toEqual({ value: '0', value_fmt: '0 gal' });
    expect(gallons.withUnit(2061, 1)).toBe('544,458.6 gal');
    expect(volumeFormat('L', 'm³').figures(1234.567, 3)).toEqual({ value: '1.235', value_fmt: '1.235 m³' });
    expect(volumeFormat('CCF', 'ft³').figures(1, 3)).toEqual({ value: '100.000', value_fmt: '100.000 ft³' });
  });

  it('refuses to convert from a unit it does not know', () => {
    expect(canWriteIn('kWh', 'gal')).toBe(false);
    expect(canWriteIn('M3', 'gal')).toBe(true);
    expect(() => volumeFormat('kWh', 'gal')).toThrow(RangeError);
  });
});
