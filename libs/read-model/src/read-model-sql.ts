import type { Interval, Tariff } from '@meter/consumption';
import { packedInterval, unpackIntervals } from './packed-intervals';
import type { DeviceRecord } from './records';

/** SQL fragments the read model queries share; `d` is an `ingest.devices` row and `c.channel` a channel of it. */

export const DEVICE_COLUMNS = `device_id::float8 AS device_id, name, channels, (extract(epoch from activated_at) * 1000)::float8 AS activated_at,
  serie, unit, decimal_places, time_zone, price_per_unit, currency_symbol, tariff,
  leak_threshold_per_hour, burst_threshold_per_hour, no_flow_days, max_silence_hours`;

export interface DeviceRow {
  device_id: number;
  name: string;
  channels: number;
  activated_at: number;
  serie: string;
  unit: string;
  decimal_places: number;
  time_zone: string;
  price_per_unit: number;
  currency_symbol: string;
  tariff: Tariff | null;
  leak_threshold_per_hour: number;
  burst_threshold_per_hour: number | null;
  no_flow_days: number;
  max_silence_hours: number;
}

export const toDevice = (r: DeviceRow): DeviceRecord => ({
  deviceId: r.device_id,
  name: r.name,
  channels: r.channels,
  activatedAt: r.activated_at,
  serie: r.serie,
  unit: r.unit,
  decimalPlaces: r.decimal_places,
  timeZone: r.time_zone,
  pricePerUnit: r.price_per_unit,
  currencySymbol: r.currency_symbol,
  tariff: r.tariff,
  leakThresholdPerHour: r.leak_threshold_per_hour,
  burstThresholdPerHour: r.burst_threshold_per_hour,
  noFlowDays: r.no_flow_days,
  maxSilenceHours: r.max_silence_hours,
});

/**
 * The channel's intervals overlapping [from, to) (timestamptz parameters),
 * oldest first, packed in one bytea (see packed-intervals.ts): those ending
 * inside, and the one spanning `to`. One ending exactly at `from` is included:
 * it adds nothing to [from, to), but a reset it reads belongs to the day that
 * starts at `from` (a reading at midnight), as `dailyConsumption` counts it.
 */
export const PACKED_INTERVALS = (from: string, to: string) => `
  coalesce((SELECT string_agg(${packedInterval('i')}, ''::bytea)
            FROM (SELECT r.prev_read_at, r.read_at, r.delta, r.reset FROM ingest.readings r
                  WHERE r.org_id = d.org_id AND r.device_id = d.device_id AND r.channel = c.channel
                    AND r.read_at >= ${from} AND r.read_at < ${to} AND r.prev_read_at IS NOT NULL
                  ORDER BY r.read_at) i), ''::bytea)
  || coalesce((SELECT CASE WHEN n.prev_read_at < ${to} THEN ${packedInterval('n')} END
               FROM (SELECT r.prev_read_at, r.read_at, r.delta, r.reset FROM ingest.readings r
                     WHERE r.org_id = d.org_id AND r.device_id = d.device_id AND r.channel = c.channel AND r.read_at >= ${to}
                     ORDER BY r.read_at LIMIT 1) n), ''::bytea)`;

/** Channel -> intervals from rows of `PACKED_INTERVALS`; channels without any are absent. */
export function intervalsByChannel(rows: readonly { channel: number; packed: Buffer }[]): Map<number, Interval[]> {
  const byChannel = new Map<number, Interval[]>();
  for (const r of rows) if (r.packed.length > 0) byChannel.set(r.channel, unpackIntervals(r.packed));
  return byChannel;
}

export /** The channel's running total at an instant (a timestamptz parameter), for `d` and `c` of the outer query. */
const RUNNING_TOTAL_AT = (at: string) => `
  coalesce(
    (SELECT CASE WHEN n.prev_read_at IS NULL OR n.read_at = ${at}::timestamptz THEN n.cum
                 ELSE n.cum - n.delta * (extract(epoch from n.read_at - ${at}::timestamptz) * 1000)::float8
                                      / (extract(epoch from n.read_at - n.prev_read_at) * 1000)::float8 END
     FROM ingest.readings n WHERE n.org_id = d.org_id AND n.device_id = d.device_id AND n.channel = c.channel AND n.read_at >= ${at}::timestamptz
     ORDER BY n.read_at LIMIT 1),
    (SELECT l.cum FROM ingest.readings l WHERE l.org_id = d.org_id AND l.device_id = d.device_id AND l.channel = c.channel AND l.read_at < ${at}::timestamptz
     ORDER BY l.read_at DESC LIMIT 1),
    0)::float8`;
