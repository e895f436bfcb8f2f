import type { CollectorFormat, CollectorMapping } from '@meter/contracts';
import type { AlarmMessageCode, Unit } from '@meter/consumption';

/** How an uplink names its meter: our device id (native) or a radio id the device carries in `external_ids`. */
export type DeviceKey = { kind: 'device_id'; deviceId: number } | { kind: 'dev_eui'; devEui: string } | { kind: 'wmbus_id'; wmbusId: string };

/** A register reading as the uplink gave it; `unit` undefined means the device's own unit (native). */
export interface DecodedReading {
  read_at: string;
  value: number | string;
  channel: number;
  unit?: Unit;
}

/** Section 9's alarm object as a collector publishes it; LEAK and BURST come from the meter's own status words. */
export type AlarmCode = AlarmMessageCode;
export interface DecodedAlarm {
  code: AlarmCode;
  state: 'raised' | 'cleared';
  at: string;
  channel?: number;
  message?: string;
}

export interface Uplink {
  device: DeviceKey;
  readings: DecodedReading[];
  alarms: DecodedAlarm[];
  /** The alarms state every code of a status (wmbusmeters): only changes need publishing. */
  alarmsAreStatus?: true;
}

/** What a decoder makes of one message: an uplink, an event it acknowledges and ignores, or the reason it cannot be used. */
export type Decoded = { kind: 'uplink'; uplink: Uplink } | { kind: 'ignored'; reason: string } | { kind: 'invalid'; reason: string };

export interface UplinkInput {
  format: CollectorFormat;
  mapping: CollectorMapping;
  /** MQTT topic; undefined for HTTP. */
  topic?: string;
  /** HTTP: ChirpStack's `?event=` */
  event?: string;
  body: Uint8Array;
  /** When collectors received it (epoch ms): the read time of uplinks that carry none. */
  receivedAt: number;
}

export const invalid = (reason: string): Decoded => ({ kind: 'invalid', reason });
