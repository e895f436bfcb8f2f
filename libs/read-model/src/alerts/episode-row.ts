import type { EpisodeCode, EpisodeState } from '@meter/consumption';
import type { AlertEpisodeView } from '@meter/contracts';

/** An episode as stored in `ingest.alert_episodes`, times in epoch ms. */
export interface EpisodeRow {
  id: string;
  org_id: string;
  device_id: number;
  channel: number;
  code: EpisodeCode;
  state: EpisodeState;
  raised_at: number;
  cleared_at: number | null;
  message: string;
}

/** The columns of an EpisodeRow, for SELECT and RETURNING (`e` the table's alias). */
export const EPISODE_COLUMNS = (e = 'e') =>
  `${e}.id, ${e}.org_id, ${e}.device_id::float8 AS device_id, ${e}.channel::int AS channel, ${e}.code, ${e}.state,
   (extract(epoch from ${e}.raised_at) * 1000)::float8 AS raised_at, (extract(epoch from ${e}.cleared_at) * 1000)::float8 AS cleared_at, ${e}.message`;

/** The episode as the API and the webhooks show it. */
export function episodeView(row: EpisodeRow): AlertEpisodeView {
  return {
    id: row.id,
    device_id: row.device_id,
    channel: row.channel,
    code: row.code,
    state: row.state,
    raised_at: new Date(row.raised_at).toISOString(),
    cleared_at: row.cleared_at === null ? null : new Date(row.cleared_at).toISOString(),
    message: row.message,
  };
}
