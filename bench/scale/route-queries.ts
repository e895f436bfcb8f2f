import {
  consumptionInWindow,
  coveredChannels,
  deviceHistory,
  episodesRaisedBetween,
  findDevices,
  latestReadings,
  listAlertEpisodes,
  listDevices,
  openAlertEpisodes,
  resetsInWindow,
  type Queryable,
} from '@meter/read-model';

const DAY = 86_400_000;

/** A month's start (UTC) before `at`, and the next month's. */
function monthOf(at: number): { start: number; end: number } {
  const d = new Date(at);
  return { start: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), end: Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) };
}

/**
 * What each gateway route asks the read model, in the order and with the
 * concurrency its service does (UTC devices): the database's share of the
 * route, without HTTP, signatures and JSON.
 */
export function routeQueries(db: Queryable, orgId: string, deviceIds: readonly number[], now: number): Record<string, () => Promise<unknown>> {
  const month = monthOf(now);
  const today = Math.floor(now / DAY) * DAY;
  const first = deviceIds[0];
  return {
    dashboard: async () => {
      const ids = [...(await findDevices(db, orgId, deviceIds)).keys()];
      await Promise.all([
        consumptionInWindow(db, orgId, ids, month.start, month.end),
        consumptionInWindow(db, orgId, ids, month.start, today),
        latestReadings(db, orgId, ids),
        consumptionInWindow(db, orgId, ids, month.start, now),
        coveredChannels(db, orgId, ids, month.start, now),
        resetsInWindow(db, orgId, ids, month.start, now),
        openAlertEpisodes(db, orgId, ids),
      ]);
    },
    'history (a month by day)': () =>
      Promise.all([
        deviceHistory(db, orgId, first, month.start, today + DAY, { from: month.start, to: month.end }),
        episodesRaisedBetween(db, orgId, first, month.start, today + DAY),
      ]),
    'history/3m': () => deviceHistory(db, orgId, first, monthOf(month.start - 62 * DAY).start, month.end),
    'projection (bulk)': async () => {
      const ids = [...(await findDevices(db, orgId, deviceIds)).keys()];
      await consumptionInWindow(db, orgId, ids, month.start, month.end);
    },
    devices: () => listDevices(db, orgId, 0, 100),
    alerts: () => listAlertEpisodes(db, orgId, { state: 'all', limit: 50 }),
  };
}
