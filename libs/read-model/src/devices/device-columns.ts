import type { Tariff } from '@meter/consumption';
import type { DeviceRecord } from '../records';

/** The columns of an `ingest.devices` row as a `DeviceRecord` reads them. */
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
