import type { ReadingRow } from '@meter/ingest';
import type { SeedBatch } from '../shared/read-model-seed';

export const HOUR = 3_600_000;

/** Litres meter `deviceId` used in hour `hourIndex` since the start: 0..40, a different pattern per meter and hour. */
const litresUsed = (deviceId: number, hourIndex: number) => (deviceId * 7919 + hourIndex * 104_729) % 41;

/**
 * Hourly readings of `meters` meters (ids 1..meters) of one organization over
 * `days` days from `start`, in m³ with 3 decimals, never decreasing: one batch
 * per `perBatch` meters and day, in time order, as a fleet's collectors
 * deliver them. Each reading carries the stream sequence it would have had
 * as its own message of a fleet reporting hour by hour (so the compact
 * store's sequence steps are a fleet's, not 1). Deterministic.
 */
export function* fleetReadings(orgId: string, meters: number, days: number, start: number, perBatch = 100): Generator<SeedBatch> {
  const litres = new Float64Array(meters + 1);
  for (let day = 0; day < days; day++) {
    for (let first = 1; first <= meters; first += perBatch) {
      const readings: ReadingRow[] = [];
      for (let deviceId = first; deviceId < Math.min(first + perBatch, meters + 1); deviceId++) {
        for (let hour = 0; hour < 24; hour++) {
          const hourIndex = day * 24 + hour;
          litres[deviceId] += litresUsed(deviceId, hourIndex);
          readings.push({ orgId, deviceId, channel: 1, readAt: start + hourIndex * HOUR, value: litres[deviceId] / 1000, seq: hourIndex * meters + deviceId });
        }
      }
      yield { readings };
    }
  }
}

/**
 * Corrections of `share` of all the fleet's readings (by default 1 %), each
 * a reading of the last `withinDays` days sent again with a value up to one
 * litre lower (never below the reading before it) and a later stream
 * sequence: what a day of collectors restating recent data brings. One batch
 * per `perBatch` meters. Deterministic.
 */
export function* fleetCorrections(
  orgId: string,
  meters: number,
  days: number,
  start: number,
  { share = 0.01, withinDays = 7, perBatch = 100 } = {},
): Generator<SeedBatch> {
  const hours = days * 24;
  const firstCorrected = hours - Math.min(withinDays, days) * 24;
  const perThousand = (1000 * share * hours) / (hours - firstCorrected);
  let seq = hours * meters;
  for (let first = 1; first <= meters; first += perBatch) {
    const readings: ReadingRow[] = [];
    for (let deviceId = first; deviceId < Math.min(first + perBatch, meters + 1); deviceId++) {
      let litres = 0;
      for (let hourIndex = 0; hourIndex < hours; hourIndex++) {
        const used = litresUsed(deviceId, hourIndex);
        litres += used;
        if (hourIndex < firstCorrected || (deviceId * 31 + hourIndex * 17) % 1000 >= perThousand) continue;
        readings.push({ orgId, deviceId, channel: 1, readAt: start + hourIndex * HOUR, value: (litres - Math.min(used, 1)) / 1000, seq: ++seq });
      }
    }
    yield { readings };
  }
}
