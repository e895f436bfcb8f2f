import type { EpisodeCode } from '@meter/consumption';
import type { Queryable } from '../records';
import { EPISODE_COLUMNS, type EpisodeRow } from './episode-row';

export type EpisodeStateFilter = 'open' | 'cleared' | 'all';

/** Where a page of alerts continues: after this episode, newest first. */
export interface AlertCursor {
  raisedAt: number;
  id: string;
}

/**
 * One page of the organization's episodes, newest first (raised_at, then id,
 * descending), optionally of one device, state and code; one more is read to know
 * whether more exist.
 */
export async function listAlertEpisodes(
  db: Queryable,
  orgId: string,
  query: { deviceId?: number; deviceIds?: readonly number[]; state: EpisodeStateFilter; limit: number; after?: AlertCursor; code?: string },
): Promise<{ episodes: EpisodeRow[]; hasMore: boolean }> {
  const rows: EpisodeRow[] = await db.query(
    `SELECT ${EPISODE_COLUMNS()} FROM ingest.alert_episodes e
     WHERE e.org_id = $1 AND ($2::bigint IS NULL OR e.device_id = $2) AND ($3::text = 'all' OR e.state = $3)
       AND ($4::timestamptz IS NULL OR (e.raised_at, e.id) < ($4::timestamptz, $5::uuid))
       AND ($7::bigint[] IS NULL OR e.device_id = ANY($7::bigint[])) AND ($8::text IS NULL OR e.code = $8)
     ORDER BY e.raised_at DESC, e.id DESC LIMIT $6`,
    [
      orgId,
      query.deviceId ?? null,
      query.state,
      query.after ? new Date(query.after.raisedAt).toISOString() : null,
      query.after?.id ?? null,
      query.limit + 1,
      query.deviceIds ?? null,
      query.code ?? null,
    ],
  );
  return { episodes: rows.slice(0, query.limit), hasMore: rows.length > query.limit };
}

/** The open episodes of the devices' channels (the dashboard's panels show them). */
export async function openAlertEpisodes(db: Queryable, orgId: string, deviceIds: readonly number[]): Promise<EpisodeRow[]> {
  return db.query(
    `SELECT ${EPISODE_COLUMNS()} FROM ingest.alert_episodes e
     WHERE e.org_id = $1 AND e.device_id = ANY($2::bigint[]) AND e.state = 'open' ORDER BY e.raised_at`,
    [orgId, deviceIds],
  );
}

/** The device's episodes raised inside [from, to), oldest first (a history's days list their codes). */
export async function episodesRaisedBetween(
  db: Queryable,
  orgId: string,
  deviceId: number,
  from: number,
  to: number,
): Promise<{ channel: number; code: EpisodeCode; raisedAt: number; message: string }[]> {
  const rows: EpisodeRow[] = await db.query(
    `SELECT ${EPISODE_COLUMNS()} FROM ingest.alert_episodes e
     WHERE e.org_id = $1 AND e.device_id = $2 AND e.raised_at >= $3 AND e.raised_at < $4 ORDER BY e.raised_at`,
    [orgId, deviceId, new Date(from).toISOString(), new Date(to).toISOString()],
  );
  return rows.map((r) => ({ channel: r.channel, code: r.code, raisedAt: r.raised_at, message: r.message }));
}
