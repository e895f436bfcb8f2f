import type { AlarmMessageCode } from '@meter/consumption';
import type { EpisodeRow, Queryable } from '@meter/read-model';
import type { AlarmUpdate } from '../readings/updates';
import { alarmKeyOf, logAlarms, loggedAlarms, type AlarmKey } from './alarm-log';
import { replayAlarms, type AlarmEpisode } from './alarm-replay';
import { closeEpisodes, deleteEpisodes, episodesOfCode, openEpisodes } from './episode-store';

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

const messageOf = (u: AlarmUpdate) => u.alarm.message ?? DEFAULT_MESSAGES[u.alarm.code];

/**
 * Device alarms in stream order: `raised` opens an episode of the code on the
 * channel (none if one is open), `cleared` closes the open one raised at or
 * before it; a redelivered message changes nothing. Ingest replicas may
 * write one device's messages out of order: an alarm that arrives after a
 * later one of its code replays that code's episodes from the alarm log.
 */
export async function applyDeviceAlarms(db: Queryable, alarms: readonly AlarmUpdate[]): Promise<void> {
  const logged = await logAlarms(db, alarms, messageOf);
  const fresh = alarms.filter((a) => logged.has(a.seq)).sort((a, b) => a.seq - b.seq);
  // A code with a late message among them is replayed whole; the others apply in order.
  const replayed = new Map(fresh.filter((a) => logged.get(a.seq)).map((a) => [keyText(alarmKeyOf(a)), alarmKeyOf(a)]));
  for (const update of fresh) {
    const key = alarmKeyOf(update);
    if (replayed.has(keyText(key))) continue;
    const { alarm } = update;
    if (alarm.state === 'raised') await openEpisodes(db, [{ ...key, code: alarm.code, raisedAt: alarm.at, clearedAt: null, message: messageOf(update) }]);
    else await closeEpisodes(db, [{ ...key, code: alarm.code, at: alarm.at }]);
  }
  for (const key of replayed.values()) await replayCode(db, key);
}

/**
 * Brings a code's episodes to what its logged alarms give in stream order.
 * Episodes the log did not make are kept, but for the latest one a logged
 * clear may close (open, or closed by a logged clear). Unchanged episodes
 * stay; the others are replaced, announcing only what is new (events keep
 * their derived ids, so one already in the outbox is not sent again).
 */
async function replayCode(db: Queryable, key: AlarmKey) {
  const logged = await loggedAlarms(db, key);
  const stored = await episodesOfCode(db, key);
  const raises = new Set(logged.filter((a) => a.state === 'raised').map((a) => a.at));
  const clears = new Set(logged.filter((a) => a.state === 'cleared').map((a) => a.at));
  const before = stored
    .filter((e) => !raises.has(e.raised_at) && (e.state === 'open' || clears.has(e.cleared_at ?? Number.NaN)))
    .sort((a, b) => b.raised_at - a.raised_at)[0];
  const made = stored.filter((e) => raises.has(e.raised_at) || e === before);
  const expected = replayAlarms(logged, before ? { raisedAt: before.raised_at, clearedAt: before.cleared_at, message: before.message } : null);
  const same = (e: EpisodeRow, x: AlarmEpisode) => e.raised_at === x.raisedAt && e.cleared_at === x.clearedAt;
  await deleteEpisodes(
    db,
    key.orgId,
    made.filter((e) => !expected.some((x) => same(e, x))).map((e) => e.id),
  );
  await openEpisodes(
    db,
    expected.filter((x) => !made.some((e) => same(e, x))).map((x) => ({ ...key, code: key.code as AlarmMessageCode, ...x })),
  );
}

const keyText = (k: AlarmKey) => `${k.orgId}\n${k.deviceId}\n${k.channel}\n${k.code}`;
