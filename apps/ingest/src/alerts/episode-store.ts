import type { EpisodeCode } from '@meter/consumption';
import { EPISODE_COLUMNS, type EpisodeRow, type Queryable } from '@meter/read-model';
import { alertEvent, appendAlertEvents } from './alert-outbox';
import { episodeId } from './derived-id';

/** An episode to open (and, when the same batch saw its end, to close at once). */
export interface NewEpisode {
  orgId: string;
  deviceId: number;
  channel: number;
  code: EpisodeCode;
  raisedAt: number;
  clearedAt: number | null;
  message: string;
}

/** The open episode of a code on a channel, to close at `at` (one raised after `at` is left open). */
export interface EpisodeClear {
  orgId: string;
  deviceId: number;
  channel: number;
  code: EpisodeCode;
  at: number;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * Opens episodes and appends their events, in the caller's transaction. An
 * episode that exists already (a replay: same derived id) or whose code is
 * open on the channel is not added, and announces nothing.
 */
export async function openEpisodes(db: Queryable, episodes: readonly NewEpisode[]): Promise<EpisodeRow[]> {
  if (episodes.length === 0) return [];
  const ids = episodes.map((e) => episodeId(e.orgId, e.deviceId, e.channel, e.code, e.raisedAt));
  const inserted: EpisodeRow[] = await db.query(
    `INSERT INTO ingest.alert_episodes AS e (id, org_id, device_id, channel, code, state, raised_at, cleared_at, message)
     SELECT id, o, d, c, code, CASE WHEN cleared IS NULL THEN 'open' ELSE 'cleared' END, raised, cleared, message
     FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::smallint[], $5::text[], $6::timestamptz[], $7::timestamptz[], $8::text[])
       AS u(id, o, d, c, code, raised, cleared, message)
     ON CONFLICT DO NOTHING
     RETURNING ${EPISODE_COLUMNS()}`,
    [
      ids,
      episodes.map((e) => e.orgId),
      episodes.map((e) => e.deviceId),
      episodes.map((e) => e.channel),
      episodes.map((e) => e.code),
      episodes.map((e) => iso(e.raisedAt)),
      episodes.map((e) => iso(e.clearedAt)),
      episodes.map((e) => e.message),
    ],
  );
  await appendAlertEvents(
    db,
    inserted.flatMap((row) =>
      row.state === 'cleared' ? [alertEvent('alert.raised', row), alertEvent('alert.cleared', row)] : [alertEvent('alert.raised', row)],
    ),
  );
  return inserted;
}

/** Closes open episodes and appends their alert.cleared events, in the caller's transaction. */
export async function closeEpisodes(db: Queryable, clears: readonly EpisodeClear[]): Promise<EpisodeRow[]> {
  if (clears.length === 0) return [];
  const closed: EpisodeRow[] = await db.query(
    // As a CTE, so every driver answers the rows (TypeORM answers an UPDATE with [rows, count]).
    `WITH closed AS (
       UPDATE ingest.alert_episodes e SET state = 'cleared', cleared_at = u.at
       FROM unnest($1::text[], $2::bigint[], $3::smallint[], $4::text[], $5::timestamptz[]) AS u(o, d, c, code, at)
       WHERE e.org_id = u.o AND e.device_id = u.d AND e.channel = u.c AND e.code = u.code AND e.state = 'open' AND e.raised_at <= u.at
       RETURNING e.*)
     SELECT ${EPISODE_COLUMNS('closed')} FROM closed`,
    [clears.map((c) => c.orgId), clears.map((c) => c.deviceId), clears.map((c) => c.channel), clears.map((c) => c.code), clears.map((c) => iso(c.at))],
  );
  await appendAlertEvents(
    db,
    closed.map((row) => alertEvent('alert.cleared', row)),
  );
  return closed;
}

/** Every episode of one code on a device's channel. */
export async function episodesOfCode(db: Queryable, key: { orgId: string; deviceId: number; channel: number; code: string }): Promise<EpisodeRow[]> {
  return db.query(`SELECT ${EPISODE_COLUMNS()} FROM ingest.alert_episodes e WHERE e.org_id = $1 AND e.device_id = $2 AND e.channel = $3 AND e.code = $4`, [
    key.orgId,
    key.deviceId,
    key.channel,
    key.code,
  ]);
}

/** Removes episodes of an organization by id (a replay replaces them), announcing nothing. */
export async function deleteEpisodes(db: Queryable, orgId: string, ids: readonly string[]): Promise<void> {
  if (ids.length > 0) await db.query(`DELETE FROM ingest.alert_episodes WHERE org_id = $1 AND id = ANY($2::uuid[])`, [orgId, ids]);
}
