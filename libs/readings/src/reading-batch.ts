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
  /** consumption of the channel since its first reading, up to this one */
  cum: number;
}

/**
 * One row per (org, device, channel, read_at): the highest stream sequence
 * wins, and within one message (same sequence) the later item, as a
 * correction replaces the earlier value. Postgres refuses to touch a row
 * twice in one `INSERT ... ON CONFLICT`, so this must happen first.
 */
export function latestPerKey(rows: readonly ReadingRow[]): ReadingRow[] {
  // channel and time in one number (channel x 2^44 + ms stays below 2^53): no string key per reading
  const byDevice = new Map<string, Map<number, ReadingRow>>();
  let lastDevice = '';
  let current: Map<number, ReadingRow> | undefined;
  for (const row of rows) {
    const device = `${row.orgId}\u0000${row.deviceId}`;
    if (device !== lastDevice || !current) {
      current = byDevice.get(device);
      if (!current) byDevice.set(device, (current = new Map()));
      lastDevice = device;
    }
    const key = row.channel * 2 ** 44 + row.readAt;
    const seen = current.get(key);
    if (!seen || row.seq >= seen.seq) current.set(key, row);
  }
  const result: ReadingRow[] = [];
  for (const readings of byDevice.values()) for (const row of readings.values()) result.push(row);
  return result;
}

/** The latest stored reading of a channel, which the batch's first reading follows. */
export interface StoredReading {
  readAt: number;
  value: number;
  cum: number;
}

/**
 * Orders the batch by channel and time and computes each reading's interval
 * from its predecessor inside the batch (contract 6: a decrease is a reset).
 * The first reading of each channel follows `before` (the latest stored
 * reading, keyed `org\0device\0channel`) when given, else has no
 * predecessor; readings that land between stored ones are relinked in SQL.
 */
export function planIntervals(rows: readonly ReadingRow[], stored: ReadonlyMap<string, StoredReading> = new Map()): PlannedReading[] {
  const byChannel = new Map<string, ReadingRow[]>();
  for (const row of rows) {
    const key = `${row.orgId}\u0000${row.deviceId}\u0000${row.channel}`;
    const list = byChannel.get(key);
    if (list) list.push(row);
    else byChannel.set(key, [row]);
  }
  const planned: PlannedReading[] = [];
  for (const [key, list] of byChannel) {
    // Collectors send in order, so this sort is usually a single pass.
    list.sort((a, b) => a.readAt - b.readAt);
    let previous: StoredReading | undefined = stored.get(key);
    for (const row of list) {
      const reset = previous !== undefined && row.value < previous.value;
      const delta = previous && !reset ? row.value - previous.value : 0;
      const next: PlannedReading = {
        orgId: row.orgId,
        deviceId: row.deviceId,
        channel: row.channel,
        readAt: row.readAt,
        value: row.value,
        seq: row.seq,
        prevReadAt: previous ? previous.readAt : null,
        delta,
        reset,
        cum: (previous?.cum ?? 0) + delta,
      };
      planned.push(next);
      previous = next;
    }
  }
  return planned;
}

/** The UTC month starts (epoch ms) the readings fall into: their partitions. */
export function monthsOf(readAts: Iterable<number>): number[] {
  const months = new Set<number>();
  let from = Infinity;
  let to = -Infinity;
  for (const ms of readAts) {
    if (ms >= from && ms < to) continue; // same month as the previous reading, the usual case
    const d = new Date(ms);
    from = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    to = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
    months.add(from);
  }
  return [...months].sort((a, b) => a - b);
}

/** Stable 64-bit lock keys for devices, in ascending order so two writers never deadlock. */
export function deviceLockKeys(devices: Iterable<{ orgId: string; deviceId: number }>): string[] {
  const keys = new Set<string>();
  for (const { orgId, deviceId } of devices) keys.add(`${orgId}:${deviceId}`);
  return [...keys].sort();
}
