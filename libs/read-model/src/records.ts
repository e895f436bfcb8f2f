import type { Tariff } from '@meter/consumption';
import type { AlarmMessage, DeviceMessage } from '@meter/contracts';

/** The record types of the read model: what its writer takes and its reader answers. */

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

/** A `meter.devices.<org>.<device>` message ready to apply. */
export interface DeviceUpdate {
  orgId: string;
  deviceId: number;
  seq: number;
  /** when JetStream stored the message (epoch ms): activation time when none is given and no reading exists */
  receivedAt: number;
  device: DeviceMessage;
}

/** A `meter.alarms.<org>.<device>` message ready to apply. */
export interface AlarmUpdate {
  orgId: string;
  deviceId: number;
  seq: number;
  alarm: AlarmMessage;
}
