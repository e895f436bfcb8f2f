import { describe, expect, it } from 'vitest';
import { intervalsFromReadings } from '@meter/consumption';
import { DEFAULT_ALERT_SETTINGS, emptyChannelState, evaluateReadings } from '@meter/ingest';
import { anomalyOf, plannedReadings, type SimulationPlan } from './publish-simulated-meters';
import { BURST_THRESHOLD_PER_HOUR, simulatedMeter, simulatedReadings, type MeterAnomaly } from './simulated-meter';

const H = 3600_000;
const to = Date.UTC(2026, 10, 21, 12);
const from = to - 10 * 24 * H;

/** The alerts the rules raise on a simulated meter's readings, open at the end. */
function openAlerts(anomaly: MeterAnomaly | undefined) {
  const readings = simulatedReadings(simulatedMeter(1, 'Europe/Madrid', 1, anomaly), from, to, H);
  const intervals = intervalsFromReadings(readings);
  let cum = 0;
  const judged = readings.map((r, i) => {
    const delta = i === 0 ? 0 : intervals[i - 1].delta;
    cum += delta;
    return { readAt: r.readAt, delta, cum };
  });
  const settings = { ...DEFAULT_ALERT_SETTINGS, timeZone: 'Europe/Madrid', burstThresholdPerHour: anomaly === 'burst' ? BURST_THRESHOLD_PER_HOUR : null };
  const open = new Set<string>();
  for (const t of evaluateReadings(emptyChannelState(), judged, settings, new Set(), to).transitions) {
    if (t.kind === 'raise') open.add(t.code);
    else open.delete(t.code);
  }
  return { open: [...open], last: readings[readings.length - 1].readAt };
}

describe('simulated anomalies', () => {
  it.each([
    [undefined, [], to],
    ['leak' as const, ['LEAK'], to],
    ['burst' as const, ['BURST'], to],
    ['silent' as const, [], to - 72 * H],
  ])('a meter with %s ends with %j open, its last reading at the expected time', (anomaly, codes, last) => {
    expect(openAlerts(anomaly)).toEqual({ open: codes, last });
  });

  it('assigns leak, burst and silent meters in that order from the first, and counts the silent ones shorter', () => {
    const plan = { anomalies: { leak: 1, burst: 2, silent: 1 } };
    expect(Array.from({ length: 6 }, (_, n) => anomalyOf(plan, n))).toEqual(['leak', 'burst', 'burst', 'silent', undefined, undefined]);
    const base: SimulationPlan = {
      orgId: 'o',
      meters: 2,
      firstId: 1,
      days: 10,
      intervalMs: H,
      zone: 'UTC',
      perMessage: 100,
      seed: 1,
      pricePerUnit: 1,
      now: to,
    };
    expect(plannedReadings(base) - plannedReadings({ ...base, anomalies: { silent: 1 } })).toBe(72);
  });
});
