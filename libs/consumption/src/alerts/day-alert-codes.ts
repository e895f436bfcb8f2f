import type { Alert } from '../alert';
import type { DailyConsumption } from '../daily-consumption';
import type { LocalDay } from '../local-day';
import { EPISODE_CODES, type EpisodeCode } from './episode-codes';

/** An episode as a day's list needs it. */
export interface RaisedEpisode {
  code: EpisodeCode;
  /** epoch ms */
  raisedAt: number;
  message: string;
}

/**
 * A day's alerts: its own (NO_DATA, REGISTER_RESET) and then one per code of
 * the episodes raised that day, in EPISODE_CODES order, with the message of
 * the first episode of the code. The history routes and the export show the
 * same list through this one function.
 */
export function dayAlertCodes(day: Pick<DailyConsumption, 'alerts'>, episodesRaisedThatDay: readonly RaisedEpisode[]): Alert[] {
  if (episodesRaisedThatDay.length === 0) return day.alerts;
  const first = new Map<EpisodeCode, RaisedEpisode>();
  for (const episode of [...episodesRaisedThatDay].sort((a, b) => a.raisedAt - b.raisedAt)) if (!first.has(episode.code)) first.set(episode.code, episode);
  const raised = EPISODE_CODES.filter((code) => first.has(code)).map((code): Alert => ({ code, message: first.get(code)!.message }));
  return [...day.alerts, ...raised];
}

/** The episodes raised inside each day ([start, end)), in the order of `days`. */
export function episodesByDay<E extends { raisedAt: number }>(days: readonly LocalDay[], episodes: readonly E[]): E[][] {
  return days.map((day) => episodes.filter((e) => e.raisedAt >= day.start && e.raisedAt < day.end));
}
