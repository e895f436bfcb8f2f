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

/** One channel of one device of one organization. */
export interface ChannelKey {
  orgId: string;
  deviceId: number;
  channel: number;
}

/**
 * Keys `org\0device\0channel` of rows, built once per run of rows of the
 * same channel (a batch holds each channel's readings together) instead of a
 * new string per reading.
 */
export function channelKeyer(): (row: { orgId: string; deviceId: number; channel: number }) => string {
  let org = '';
  let device = -1;
  let channel = -1;
  let key = '';
  return (row) => {
    if (row.channel !== channel || row.deviceId !== device || row.orgId !== org) {
      org = row.orgId;
      device = row.deviceId;
      channel = row.channel;
      key = `${org}\u0000${device}\u0000${channel}`;
    }
    return key;
  };
}

/**
 * One row per (org, device, channel, read_at): the highest stream sequence
 * wins, and within one message (same sequence) the later item, as a
 * correction replaces the earlier value. Postgres refuses to touch a row
 * twice in one `INSERT ... ON CONFLICT`, so this must happen first.
 */
export function latestPerKey(rows: readonly ReadingRow[]): ReadingRow[] {
  const byDevice = new Map<string, DeviceRows>();
  let current: DeviceRows | undefined;
  for (const row of rows) {
    if (!current || row.deviceId !== current.deviceId || row.orgId !== current.orgId) {
      const device = `${row.orgId}\u0000${row.deviceId}`;
      current = byDevice.get(device);
      if (!current) byDevice.set(device, (current = { orgId: row.orgId, deviceId: row.deviceId, inOrder: [], lastKey: -Infinity, byKey: undefined }));
    }
    const key = readingKey(row);
    // A device's readings in ascending (channel, time) order cannot repeat a key: the usual case needs no map.
    if (current.byKey === undefined && typeof key === 'number' && key > current.lastKey) {
      current.inOrder.push(row);
      current.lastKey = key;
      continue;
    }
    if (current.byKey === undefined) current.byKey = new Map(current.inOrder.map((r) => [readingKey(r), r]));
    const seen = current.byKey.get(key);
    if (!seen || row.seq >= seen.seq) current.byKey.set(key, row);
  }
  const result: ReadingRow[] = [];
  for (const device of byDevice.values()) for (const row of device.byKey ? device.byKey.values() : device.inOrder) result.push(row);
  return result;
}

interface DeviceRows {
  orgId: string;
  deviceId: number;
  /** the device's rows while each key is larger than the one before */
  inOrder: ReadingRow[];
  lastKey: number;
  /** once a key is not larger: every row by key, in first-seen order (the map keeps `inOrder`'s order) */
  byKey: Map<number | string, ReadingRow> | undefined;
}

const CHANNEL_SPAN = 2 ** 44;

/**
 * Channel and time as one key: channel x 2^44 + ms is exact and unique for
 * times from 1970 to 2527 (0 <= ms < 2^44), with no string per reading; other
 * times, which RFC 3339 years 0000-9999 allow, get a string key.
 */
function readingKey(row: ReadingRow): number | string {
  return row.readAt >= 0 && row.readAt < CHANNEL_SPAN ? row.channel * CHANNEL_SPAN + row.readAt : `${row.channel}:${row.readAt}`;
}

/** The latest stored reading of a channel, which the batch's first reading follows. */
export interface StoredReading {
  readAt: number;
  value: number;
  cum: number;
}

/** Receives one reading with its interval; see `visitIntervals`. */
export type IntervalVisitor = (row: ReadingRow, prevReadAt: number | null, delta: number, reset: boolean, cum: number) => void;

/**
 * Orders the batch by channel and time and computes each reading's interval
 * from its predecessor inside the batch (a decrease is a reset).
 * The first reading of each channel follows `stored` (the latest stored
 * reading, keyed `org\0device\0channel`) when given, else has no
 * predecessor; readings that land between stored ones are relinked in SQL.
 * Hands each reading to `visit` in that order, without an object per reading.
 */
export function visitIntervals(rows: readonly ReadingRow[], stored: ReadonlyMap<string, StoredReading>, visit: IntervalVisitor): void {
  const byChannel = new Map<string, ReadingRow[]>();
  const keyOf = channelKeyer();
  let lastKey = '';
  let list: ReadingRow[] = [];
  for (const row of rows) {
    const key = keyOf(row);
    if (key !== lastKey) {
      lastKey = key;
      const known = byChannel.get(key);
      if (known) list = known;
      else byChannel.set(key, (list = []));
    }
    list.push(row);
  }
  for (const [key, list] of byChannel) {
    // Collectors send in order, so this sort is usually a single pass.
    list.sort((a, b) => a.readAt - b.readAt);
    const before = stored.get(key);
    let prevReadAt = before ? before.readAt : null;
    let prevValue = before ? before.value : 0;
    let prevCum = before ? before.cum : 0;
    for (const row of list) {
      const reset = prevReadAt !== null && row.value < prevValue;
      const delta = prevReadAt !== null && !reset ? row.value - prevValue : 0;
      const cum = prevCum + delta;
      visit(row, prevReadAt, delta, reset, cum);
      prevReadAt = row.readAt;
      prevValue = row.value;
      prevCum = cum;
    }
  }
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
  let org = '';
  let device = -1;
  for (const { orgId, deviceId } of devices) {
    if (deviceId === device && orgId === org) continue; // the same device as the row before: the usual case
    org = orgId;
    device = deviceId;
    keys.add(`${orgId}:${deviceId}`);
  }
  return [...keys].sort();
}
