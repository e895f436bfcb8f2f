/** One reading of a batch, routed and validated, with the stream sequence that carried it. */
export interface ReadingRow {
  orgId: string;
  deviceId: number;
  channel: number;
  /** epoch ms */
  readAt: number;
  value: number;
  /** JetStream sequence of the message; a later one wins on the same key */
  seq: number;
}

/** A reading with its interval since the previous reading of the batch on its channel. */
export interface PlannedReading extends ReadingRow {
  prevReadAt: number | null;
  delta: number;
  reset: boolean;
}

/**
 * One row per (org, device, channel, read_at): the highest stream sequence
 * wins, and within one message (same sequence) the later item, as a
 * correction replaces the earlier value. Postgres refuses to touch a row
 * twice in one `INSERT ... ON CONFLICT`, so this must happen first.
 */
export function latestPerKey(rows: readonly ReadingRow[]): ReadingRow[] {
  const byKey = new Map<string, ReadingRow>();
  for (const row of rows) {
    const key = `${row.orgId}\u0000${row.deviceId}\u0000${row.channel}\u0000${row.readAt}`;
    const seen = byKey.get(key);
    if (!seen || row.seq >= seen.seq) byKey.set(key, row);
  }
  return [...byKey.values()];
}

/**
 * Orders the batch by channel and time and computes each reading's interval
 * from its predecessor inside the batch (contract 6: a decrease is a reset).
 * The first reading of each channel gets no predecessor here; the writer
 * then fixes every interval against the stored neighbours in SQL, so this
 * is only a head start that saves rewriting rows in the common in-order case.
 */
export function planIntervals(rows: readonly ReadingRow[]): PlannedReading[] {
  const sorted = [...rows].sort(
    (a, b) =>
      (a.orgId < b.orgId ? -1 : a.orgId > b.orgId ? 1 : 0) || a.deviceId - b.deviceId || a.channel - b.channel || a.readAt - b.readAt,
  );
  return sorted.map((row, i) => {
    const before = sorted[i - 1];
    const sameChannel = before && before.orgId === row.orgId && before.deviceId === row.deviceId && before.channel === row.channel;
    if (!sameChannel) return { ...row, prevReadAt: null, delta: 0, reset: false };
    const reset = row.value < before.value;
    return { ...row, prevReadAt: before.readAt, delta: reset ? 0 : row.value - before.value, reset };
  });
}

/** The UTC month starts (epoch ms) the readings fall into: their partitions. */
export function monthsOf(readAts: Iterable<number>): number[] {
  const months = new Set<number>();
  for (const ms of readAts) {
    const d = new Date(ms);
    months.add(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  }
  return [...months].sort((a, b) => a - b);
}

/** Stable 64-bit lock keys for devices, in ascending order so two writers never deadlock. */
export function deviceLockKeys(devices: Iterable<{ orgId: string; deviceId: number }>): string[] {
  const keys = new Set<string>();
  for (const { orgId, deviceId } of devices) keys.add(`${orgId}:${deviceId}`);
  return [...keys].sort();
}
