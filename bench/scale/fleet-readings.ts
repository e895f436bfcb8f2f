import type { ReadingRow } from '@meter/ingest';
import type { SeedBatch } from '../shared/read-model-seed';

export const HOUR = 3_600_000;

/**
 * Hourly readings of `meters` meters (ids 1..meters) of one organization over
 * `days` days from `start`, in m³ with 3 decimals, never decreasing: one batch
 * per `perBatch` meters and day, in time order, as a fleet's collectors
 * deliver them. Deterministic: each meter's use comes from its id.
 */
export function* fleetReadings(orgId: string, meters: number, days: number, start: number, perBatch = 100): Generator<SeedBatch> {
  const litres = new Float64Array(meters + 1);
  let seq = 0;
  for (let day = 0; day < days; day++) {
    for (let first = 1; first <= meters; first += perBatch) {
      const readings: ReadingRow[] = [];
      for (let deviceId = first; deviceId < Math.min(first + perBatch, meters + 1); deviceId++) {
        for (let hour = 0; hour < 24; hour++) {
          // 0..40 litres an hour, a different pattern per meter and hour
          litres[deviceId] += (deviceId * 7919 + (day * 24 + hour) * 104_729) % 41;
          readings.push({ orgId, deviceId, channel: 1, readAt: start + (day * 24 + hour) * HOUR, value: litres[deviceId] / 1000, seq: ++seq });
        }
      }
      yield { readings };
    }
  }
}
