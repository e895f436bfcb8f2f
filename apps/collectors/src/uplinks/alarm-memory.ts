import type { DecodedAlarm } from '../decoders/uplink';

/** Devices remembered at most; past it the memory starts afresh (every code is then stated once more, which changes nothing). */
const MAX_ENTRIES = 200_000;

/**
 * The alarm state this process last published per device, channel and code,
 * so a status that repeats itself telegram after telegram publishes only its
 * changes. Unknown state (a device first seen since start) publishes every
 * code once: a raised alarm already open, or a cleared one not open, changes
 * nothing in ingest, so forgetting is always safe.
 */
export class AlarmMemory {
  private readonly states = new Map<string, 'raised' | 'cleared'>();

  changes(orgId: string, deviceId: number, alarms: readonly DecodedAlarm[]): DecodedAlarm[] {
    return alarms.filter((alarm) => this.states.get(keyOf(orgId, deviceId, alarm)) !== alarm.state);
  }

  remember(orgId: string, deviceId: number, alarms: readonly DecodedAlarm[]): void {
    if (this.states.size + alarms.length > MAX_ENTRIES) this.states.clear();
    for (const alarm of alarms) this.states.set(keyOf(orgId, deviceId, alarm), alarm.state);
  }
}

const keyOf = (orgId: string, deviceId: number, alarm: DecodedAlarm) => `${orgId}\u0000${deviceId}\u0000${alarm.channel ?? 1}\u0000${alarm.code}`;
