import { describe, expect, it } from 'vitest';
import { dailyConsumption, intervalsFromReadings, localDays } from '@meter/consumption';
import { simulatedMeter, simulatedReadings } from './simulated-meter';

describe('simulated meters', () => {
  const meter = simulatedMeter(3, 'Asia/Kolkata', 1);
  const from = Date.UTC(2026, 9, 1, 0, 0);
  const readings = simulatedReadings(meter, from, from + 30 * 24 * 3600_000, 3600_000);

  it('reads every interval, never decreasing, in litres', () => {
    expect(readings).toHaveLength(30 * 24 + 1);
    for (let i = 1; i < readings.length; i++) {
      expect(readings[i].readAt - readings[i - 1].readAt).toBe(3600_000);
      expect(readings[i].value).toBeGreaterThanOrEqual(readings[i - 1].value);
      expect(Math.round(readings[i].value * 1000) / 1000).toBe(readings[i].value);
    }
  });

  it('uses about its daily average, more in the local morning than at night, and is deterministic', () => {
    const days = dailyConsumption(intervalsFromReadings(readings), localDays('2026-10-02', '2026-10-29', 'Asia/Kolkata'));
    const average = days.reduce((sum, d) => sum + d.value, 0) / days.length;
    expect(average).toBeGreaterThan(meter.dailyUse * 0.85);
    expect(average).toBeLessThan(meter.dailyUse * 1.2);
    // 07:00-08:00 local (01:30Z) against 02:00-03:00 local (20:30Z the day before), over all days
    const use = (utcHourStart: number) =>
      readings.reduce((sum, r, i) => (i > 0 && (r.readAt - 1800_000) % 86_400_000 === utcHourStart ? sum + r.value - readings[i - 1].value : sum), 0);
    expect(use(1 * 3600_000 + 1800_000)).toBeGreaterThan(5 * use(20 * 3600_000 + 1800_000));
    expect(simulatedReadings(meter, from, from + 48 * 3600_000, 3600_000)).toEqual(readings.slice(0, 49));
  });
});
