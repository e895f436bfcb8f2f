import type { DeviceMessage } from '@meter/contracts';

/** A `meter.devices.<org>.<device>` message ready to apply. */
export interface DeviceUpdate {
  orgId: string;
  deviceId: number;
  seq: number;
  /** when JetStream stored the message (epoch ms): activation time when none is given and no reading exists */
  receivedAt: number;
  device: DeviceMessage;
}
