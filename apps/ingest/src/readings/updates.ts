import type { AlarmMessage, DeviceMessage } from '@meter/contracts';

/** What a routed device or alarm message asks the batch writer to apply (readings are `ReadingRow`s). */

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
