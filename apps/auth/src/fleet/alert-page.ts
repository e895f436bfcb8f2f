import type { EpisodeStateFilter } from '@meter/read-model';
import { episodeView } from '@meter/read-model';
import { alertPageToken, readAlertPageToken } from './fleet-page-token';
import type { FleetReadModel } from './fleet-read-model';
import type { FleetAlertList } from './fleet.schemas';

/** One page of the organization's alert episodes, newest first, and the token of the next. */
export async function alertPage(
  fleet: FleetReadModel,
  orgId: string,
  query: { deviceId?: number; state: EpisodeStateFilter; limit: number; code?: string },
  token: unknown,
): Promise<FleetAlertList> {
  const after = token === undefined ? undefined : readAlertPageToken(token);
  const page = await fleet.alerts(orgId, { ...query, after });
  const last = page.episodes[page.episodes.length - 1];
  return {
    alerts: page.episodes.map(episodeView),
    has_more: page.hasMore,
    next_page_token: page.hasMore && last ? alertPageToken({ raisedAt: last.raised_at, id: last.id }) : null,
  };
}
