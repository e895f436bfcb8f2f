import type { Tariff } from '@meter/consumption';

/** The record types of the read model: what its queries answer. */

/** Anything that runs SQL: a TypeORM DataSource or QueryRunner, or `PreparedQueries`. */
export interface Queryable {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query(sql: string, params?: unknown[]): Promise<any>;
}

/** A device as stored in `ingest.devices`. */
export interface DeviceRecord {
  deviceId: number;
  name: string;
  channels: number;
  /** epoch ms */
  activatedAt: number;
  serie: string;
  unit: string;
  decimalPlaces: number;
  timeZone: string;
  pricePerUnit: number;
  currencySymbol: string;
  /** replaces pricePerUnit when set (docs/consumption.md, "Tariffs") */
  tariff: Tariff | null;
  /** alert thresholds, in the device's unit (docs: "Alerts and webhooks") */
  leakThresholdPerHour: number;
  /** null: BURST is off */
  burstThresholdPerHour: number | null;
  noFlowDays: number;
  maxSilenceHours: number;
}

/** The latest stored reading of one channel of a device. */
export interface LatestReading {
  deviceId: number;
  channel: number;
  readAt: number;
  value: number;
}
