export { recordAlerts, type AlertBatch } from './record-alerts';
export { checkSilences, SILENCE_CHECK_LOCK } from './silence-check';
export { listAlertEpisodes, openAlertEpisodes, episodesRaisedBetween, type AlertCursor, type EpisodeStateFilter } from './alert-reader';
export { rebuildDeviceAlerts } from './rebuild-alerts';
export { ALERT_OUTBOX, ALERT_EVENTS_CHANNEL } from './alert-outbox';
export { episodeView, type EpisodeRow } from './episode-row';
export { derivedUuid, episodeId } from './derived-id';
