import { describe, expect, it } from 'vitest';
import { BusNames } from './bus';

describe('BusNames', () => {
  it('leaves names alone without a prefix', () => {
    const bus = new BusNames();
    expect(bus.subject('meter.readings.>')).toBe('meter.readings.>');
    expect(bus.stream('READINGS')).toBe('READINGS');
  });

  it('puts the prefix in front of subjects and stream names, and takes it off again', () => {
    const bus = new BusNames('t1a2');
    expect(bus.subject('meter.readings.org1.5')).toBe('t1a2.meter.readings.org1.5');
    expect(bus.unprefixed('t1a2.meter.readings.org1.5')).toBe('meter.readings.org1.5');
    expect(bus.stream('READINGS')).toBe('T1A2_READINGS');
  });
});
