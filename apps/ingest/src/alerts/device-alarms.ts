import type { AlarmMessageCode } from '@meter/consumption';
import type { Queryable } from '@meter/read-model';
import type { AlarmUpdate } from '../readings/updates';
import { closeEpisodes, openEpisodes } from './episode-store';

const DEFAULT_MESSAGES: Record<AlarmMessageCode, string> = {
  TAMPER: 'The meter reports tampering.',
  LOW_BATTERY: 'The meter reports a low battery.',
  REVERSE_FLOW: 'The meter reports water flowing backwards.',
  DRY: 'The meter reports an empty (dry) pipe.',
  MAGNETIC: 'The meter reports magnetic interference.',
  OTHER: 'The meter reports an alarm.',
  LEAK: 'The meter reports a leak.',
  BURST: 'The meter reports a burst.',
};

/**
 * Device alarms in stream order: `raised` opens an episode of the code on the
 * channel (none if one is open, or if this very alarm opened one before: a
 * redelivery), `cleared` closes the open one raised at or before it.
 */
export async function applyDeviceAlarms(db: Queryable, alarms: readonly AlarmUpdate[]): Promise<void> {
  for (const { orgId, deviceId, alarm } of [...alarms].sort((a, b) => a.seq - b.seq)) {
    const key = { orgId, deviceId, channel: alarm.channel, code: alarm.code };
    if (alarm.state === 'raised') {
      await openEpisodes(db, [{ ...key, raisedAt: alarm.at, clearedAt: null, message: alarm.message ?? DEFAULT_MESSAGES[alarm.code] }]);
    } else {
      await closeEpisodes(db, [{ ...key, at: alarm.at }]);
    }
  }
}
