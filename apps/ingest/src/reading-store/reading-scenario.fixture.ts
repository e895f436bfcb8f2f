import type { DataSource } from 'typeorm';
import { latestPerKey, type ReadingRow } from './reading-batch';
import { writeReadingDays } from './reading-days';
import { ensurePartitions } from './reading-store';

/**
 * Seeded batches for tests of the reading store: appends,
 * late readings, corrections, stale redeliveries, repeats, register resets
 * and flat stretches, on channels of different cadence (minutes, hours, and
 * gaps of days, so rows of the compact store have empty days between them),
 * across the end of October 2026.
 */

export const H = 3_600_000;
export const T0 = Date.parse('2026-10-29T00:00:00Z');

/** device, channel, shortest and longest step between appended readings (minutes) */
export const CHANNELS = [
  [1, 1, 60, 180],
  [1, 2, 10, 40],
  [2, 1, 60, 3600],
  [3, 1, 60, 180],
  [3, 2, 240, 1440],
] as const;

export function seededRandom(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
}

export function scenario(seed: number, orgId: string, batchCount: number): ReadingRow[][] {
  const random = seededRandom(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const written: ReadingRow[] = [];
  const cursors = new Map<string, { at: number; value: number }>(
    CHANNELS.map(([d, c]) => [`${d}:${c}`, { at: T0 + Math.floor(random() * 5) * H, value: 100 }]),
  );
  let seq = 0;
  const batches: ReadingRow[][] = [];
  for (let b = 0; b < batchCount; b++) {
    const batch: ReadingRow[] = [];
    for (let m = 1 + Math.floor(random() * 4); m > 0; m--) {
      const [deviceId, channel, shortest, longest] = pick(CHANNELS);
      const kind = random();
      seq++;
      if (kind < 0.55 || written.length === 0) {
        const cursor = cursors.get(`${deviceId}:${channel}`)!;
        for (let n = 1 + Math.floor(random() * 3); n > 0; n--) {
          cursor.at += (shortest + Math.floor(random() * (longest - shortest))) * 60_000;
          const step = random();
          if (step < 0.05) cursor.value = Math.round(random() * 10);
          else if (step > 0.7) cursor.value = Math.round((cursor.value + random() * 2) * 1000) / 1000;
          batch.push({ orgId, deviceId, channel, readAt: cursor.at, value: cursor.value, seq });
        }
      } else {
        const old = pick(written);
        if (kind < 0.7) batch.push({ ...old, readAt: old.readAt - Math.floor(random() * 50) * 60_000 - 60_000, seq });
        else if (kind < 0.85) batch.push({ ...old, value: Math.round(random() * 300_000) / 1000, seq });
        else if (kind < 0.95) batch.push({ ...old, value: old.value + 1, seq: Math.max(0, old.seq - 1) });
        else batch.push({ ...old });
      }
    }
    written.push(...batch);
    batches.push(batch);
  }
  return batches;
}

/** Writes a batch's readings in one transaction, as `writeBatch` does. */
export async function writeDays(ds: DataSource, batch: readonly ReadingRow[], known: Set<number>): Promise<void> {
  const rows = latestPerKey(batch);
  await ensurePartitions(
    (sql, params) => ds.query(sql, params),
    rows.map((r) => r.readAt),
    known,
  );
  const runner = ds.createQueryRunner();
  await runner.startTransaction();
  try {
    await writeReadingDays(runner, rows);
    await runner.commitTransaction();
  } catch (error) {
    await runner.rollbackTransaction();
    throw error;
  } finally {
    await runner.release();
  }
}
