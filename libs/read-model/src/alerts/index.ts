export { listAlertEpisodes, openAlertEpisodes, episodesRaisedBetween, type AlertCursor, type EpisodeStateFilter } from './alert-reader';
export { EPISODE_COLUMNS, episodeView, type EpisodeRow } from './episode-row';
