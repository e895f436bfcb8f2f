import { describe, expect, it } from 'vitest';
import { deviceRecord } from '@meter/testing/device-record';
import { deviceVolumes, requestedUnit } from './x-unit';

/** A header value as Node hands it over: its bytes read as latin1. */
const asReceived = (text: string, encoding: BufferEncoding) => Buffer.from(text, encoding).toString('latin1');

describe('requestedUnit (X-Unit)', () => {
  it.each<[string, string]>([
    ['m3', 'm³'],
    ['M3', 'm³'],
    [asReceived('m³', 'utf8'), 'm³'],
    [asReceived('m³', 'latin1'), 'm³'],
    ['L', 'L'],
    ['l', 'L'],
    ['gal', 'gal'],
    ['GAL', 'gal'],
    ['ft3', 'ft³'],
    [asReceived('ft³', 'utf8'), 'ft³'],
    [asReceived('FT³', 'latin1'), 'ft³'],
    ['CCF', 'CCF'],
    ['ccf', 'CCF'],
  ])('reads %j as %s', (header, unit) => {
    expect(requestedUnit(header)).toBe(unit);
  });

  it('is absent without the header', () => {
    expect(requestedUnit(undefined)).toBeUndefined();
  });

  it.each<[string | string[]]>([[''], ['kWh'], ['m^3'], ['gallon'], ['m³ '.repeat(3)], ['gal, gal'], [['gal', 'L']], [asReceived('m²', 'utf8')]])(
    'refuses %j with a 400 naming X-Unit',
    (header) => {
      expect(() => requestedUnit(header)).toThrow(
        expect.objectContaining({ code: 'validation_failed', extensions: { errors: [expect.objectContaining({ field: 'X-Unit' })] } }),
      );
    },
  );
});

describe('deviceVolumes', () => {
  it("converts from the device's unit, or refuses a unit it cannot convert from", () => {
    expect(deviceVolumes(deviceRecord(7, { unit: 'L' }), 'm³').figures(1500, 3)).toEqual({ value: '1.500', value_fmt: '1.500 m³' });
    expect(deviceVolumes(deviceRecord(7, { unit: 'L' }), undefined).unit).toBe('L');
    expect(() => deviceVolumes(deviceRecord(7, { unit: 'kWh' }), 'gal')).toThrow(expect.objectContaining({ code: 'validation_failed' }));
  });
});
