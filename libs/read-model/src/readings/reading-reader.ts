import type { Interval } from '@meter/consumption';
import type { LatestReading, Queryable } from '../records';
import { FIRST_INTERVAL_AFTER, intervalsByChannel, PACKED_INTERVALS, RESET_READ_BETWEEN, RUNNING_TOTAL_AT } from './reading-sql';

/**
 * The stored intervals of each channel of a device (1..its `channels`) that overlap [from, to),
 * oldest first: those ending inside it (or exactly at `from`, for its reset), and the one spanning its end.
 * Each channel's intervals come packed in one value (see packed-intervals.ts);
 * channels without any are absent.
 */
export async function intervalsOverlapping(db: Queryable, orgId: string, deviceId: number, from: number, to: number): Promise<Map<number, Interval[]>> {
  const rows: { channel: number; packed: Buffer }[] = await db.query(
    `SELECT c.channel, ${PACKED_INTERVALS('$3', '$4')} AS packed
     FROM ingest.devices d CROSS JOIN LATERAL generate_series(1, d.channels) AS c(channel)
     WHERE d.org_id = $1 AND d.device_id = $2`,
    [orgId, deviceId, new Date(from).toISOString(), new Date(to).toISOString()],
  );
  return intervalsByChannel(rows);
}

/**
 * Consumption inside [from, to) per device and channel: the running total
 * at `to` minus the one at `from`. The running total at an instant inside
 * an interval leaves out the part of the interval's delta after it (linear
 * spreading, as the library's `overlapShare`); before the first reading it
 * is 0, after the last the last reading's. Two index probes per channel
 * whatever the window's length.
 */
export async function consumptionInWindow(
  db: Queryable,
  orgId: string,
  deviceIds: readonly number[],
  from: number,
  to: number,
): Promise<Map<number, Map<number, number>>> {
  const rows: { device_id: number; channel: number; total: number }[] = await db.query(
    `SELECT d.device_id::float8 AS device_id, c.channel,
       (${RUNNING_TOTAL_AT('$4')}) - (${RUNNING_TOTAL_AT('$3')}) AS total
     FROM ingest.devices d CROSS JOIN LATERAL generate_series(1, d.channels) AS c(channel)
     WHERE d.org_id = $1 AND d.device_id = ANY($2::bigint[])`,
    [orgId, deviceIds, new Date(from).toISOString(), new Date(to).toISOString()],
  );
  const result = new Map<number, Map<number, number>>();
  for (const r of rows) {
    const channels = result.get(r.device_id) ?? new Map<number, number>();
    channels.set(r.channel, r.total);
    result.set(r.device_id, channels);
  }
  return result;
}

/**
 * Channels with any stored interval overlapping [from, to), per device: the rest have NO_DATA there.
 * Intervals chain (each reading's `prev_read_at` is the reading before it), so the first interval
 * ending after `from` starts earliest of all those that do: one forward index probe per channel
 * decides it. (An `EXISTS` over `read_at > from AND prev_read_at < to` was planned as a semi-join
 * reading whole partitions, every organization's rows.)
 */
export async function coveredChannels(db: Queryable, orgId: string, deviceIds: readonly number[], from: number, to: number): Promise<Map<number, Set<number>>> {
  const rows: { device_id: number; channel: number }[] = await db.query(
    `SELECT d.device_id::float8 AS device_id, c.channel FROM ingest.devices d
     CROSS JOIN LATERAL generate_series(1, d.channels) AS c(channel)
     CROSS JOIN LATERAL (${FIRST_INTERVAL_AFTER('$3')}) f
     WHERE d.org_id = $1 AND d.device_id = ANY($2::bigint[]) AND f.prev_read_at < $4`,
    [orgId, deviceIds, new Date(from).toISOString(), new Date(to).toISOString()],
  );
  const result = new Map<number, Set<number>>();
  for (const r of rows) result.set(r.device_id, (result.get(r.device_id) ?? new Set()).add(r.channel));
  return result;
}

/** Whether any register reset was read inside [from, to), per device and channel: a range scan of each channel's window. */
export async function resetsInWindow(db: Queryable, orgId: string, deviceIds: readonly number[], from: number, to: number): Promise<Set<string>> {
  const rows: { device_id: number; channel: number }[] = await db.query(
    `SELECT d.device_id::float8 AS device_id, c.channel FROM ingest.devices d
     CROSS JOIN LATERAL generate_series(1, d.channels) AS c(channel)
     CROSS JOIN LATERAL (${RESET_READ_BETWEEN('$3', '$4')}) x
     WHERE d.org_id = $1 AND d.device_id = ANY($2::bigint[])`,
    [orgId, deviceIds, new Date(from).toISOString(), new Date(to).toISOString()],
  );
  return new Set(rows.map((r) => `${r.device_id}:${r.channel}`));
}

/** The latest reading of each channel of each device (index scans backwards, one per channel). */
export async function latestReadings(db: Queryable, orgId: string, deviceIds: readonly number[]): Promise<LatestReading[]> {
  const rows: { device_id: number; channel: number; read_at: number; value: number }[] = await db.query(
    `SELECT d.device_id::float8 AS device_id, c.channel, (extract(epoch from l.read_at) * 1000)::float8 AS read_at, l.value
     FROM ingest.devices d
     CROSS JOIN LATERAL generate_series(1, d.channels) AS c(channel)
     CROSS JOIN LATERAL (SELECT read_at, value FROM ingest.readings r WHERE r.org_id = d.org_id AND r.device_id = d.device_id AND r.channel = c.channel
                         ORDER BY r.read_at DESC LIMIT 1) l
     WHERE d.org_id = $1 AND d.device_id = ANY($2::bigint[])`,
    [orgId, deviceIds],
  );
  return rows.map((r) => ({ deviceId: r.device_id, channel: r.channel, readAt: r.read_at, value: r.value }));
}

/** How many readings the organization has stored: how far ingest has taken in what was published for it. */
export async function storedReadingCount(db: Queryable, orgId: string): Promise<number> {
  const [row]: { n: number }[] = await db.query(`SELECT count(*)::float8 AS n FROM ingest.readings WHERE org_id = $1`, [orgId]);
  return row.n;
}
