import { READING_ALERT_CODES, type EpisodeCode } from '@meter/consumption';
import type { Queryable } from '@meter/read-model';
import { readingsAfter } from '../reading-store/reading-history';
import { loadChannelContexts, saveChannelStates } from './channel-state-store';
import { episodeId } from './derived-id';
import type { NewEpisode } from './episode-store';
import { emptyChannelState, evaluateReadings } from './rules';

const CHUNK = 20_000;

/**
 * Re-derives a device's reading episodes (LEAK, BURST, NO_FLOW) and rule
 * state from all its stored readings, as ingest derives them reading by
 * reading: the same readings give the same episodes with the same ids. Runs
 * under the device lock in the caller's transaction (`rebuildDevice` takes
 * it). Replaces the device's episodes of those codes and announces nothing;
 * device alarms and NO_COMMUNICATION stay as they are. Returns how many
 * episodes it wrote.
 */
export async function rebuildDeviceAlerts(db: Queryable, orgId: string, deviceId: number): Promise<number> {
  const [device]: { channels: number }[] = await db.query('SELECT channels FROM ingest.devices WHERE org_id = $1 AND device_id = $2', [orgId, deviceId]);
  if (!device) return 0;
  const channels = Array.from({ length: device.channels }, (_, i) => ({ orgId, deviceId, channel: i + 1 }));
  const contexts = await loadChannelContexts(db, channels);
  const episodes: NewEpisode[] = [];
  for (const key of channels) {
    const context = contexts.get(`${orgId}\u0000${deviceId}\u0000${key.channel}`);
    if (!context) continue;
    let state = emptyChannelState();
    const open = new Map<EpisodeCode, NewEpisode>();
    // The channel's readings in chunks, oldest first.
    for (let after = -Infinity; ;) {
      const readings = await readingsAfter(db, key, Number.isFinite(after) ? after : null, CHUNK);
      if (readings.length === 0) break;
      const result = evaluateReadings(state, readings, context.settings, new Set(open.keys()), 0);
      state = result.state;
      for (const t of result.transitions) {
        if (t.kind === 'raise') {
          const episode: NewEpisode = { ...key, code: t.code, raisedAt: t.at, clearedAt: null, message: t.message };
          episodes.push(episode);
          open.set(t.code, episode);
        } else {
          open.get(t.code)!.clearedAt = t.at;
          open.delete(t.code);
        }
      }
      after = readings[readings.length - 1].readAt;
      if (readings.length < CHUNK) break;
    }
    if (state.latestAt !== null) await saveChannelStates(db, [{ ...key, state }]);
  }
  await db.query(`DELETE FROM ingest.alert_episodes WHERE org_id = $1 AND device_id = $2 AND code = ANY($3::text[])`, [orgId, deviceId, READING_ALERT_CODES]);
  if (episodes.length === 0) return 0;
  await db.query(
    `INSERT INTO ingest.alert_episodes (id, org_id, device_id, channel, code, state, raised_at, cleared_at, message)
     SELECT id, $1, $2, c, code, CASE WHEN cleared IS NULL THEN 'open' ELSE 'cleared' END, raised, cleared, message
     FROM unnest($3::uuid[], $4::smallint[], $5::text[], $6::timestamptz[], $7::timestamptz[], $8::text[]) AS u(id, c, code, raised, cleared, message)`,
    [
      orgId,
      deviceId,
      episodes.map((e) => episodeId(orgId, deviceId, e.channel, e.code, e.raisedAt)),
      episodes.map((e) => e.channel),
      episodes.map((e) => e.code),
      episodes.map((e) => new Date(e.raisedAt).toISOString()),
      episodes.map((e) => (e.clearedAt === null ? null : new Date(e.clearedAt).toISOString())),
      episodes.map((e) => e.message),
    ],
  );
  return episodes.length;
}
