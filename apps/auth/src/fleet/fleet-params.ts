import { EPISODE_CODES, type EpisodeCode } from '@meter/consumption';
import { notOneValue } from '@meter/device-reports';
import { validationFailed } from '@meter/http';
import type { EpisodeStateFilter } from '@meter/read-model';

export const DEFAULT_FLEET_PAGE = 50;
export const MAX_FLEET_PAGE = 200;

/** `limit`: 1..MAX_FLEET_PAGE, default DEFAULT_FLEET_PAGE. */
export function fleetPageSize(raw: unknown): number {
  if (raw === undefined) return DEFAULT_FLEET_PAGE;
  if (typeof raw !== 'string' || !/^[0-9]{1,4}$/.test(raw) || Number(raw) < 1 || Number(raw) > MAX_FLEET_PAGE) {
    throw validationFailed([{ field: 'limit', message: `must be an integer from 1 to ${MAX_FLEET_PAGE}` }]);
  }
  return Number(raw);
}

const STATES = new Set<EpisodeStateFilter>(['open', 'cleared', 'all']);

/** `state` of the alert lists: open (default), cleared or all. */
export function alertState(raw: unknown): EpisodeStateFilter {
  if (raw === undefined) return 'open';
  if (typeof raw === 'string' && STATES.has(raw as EpisodeStateFilter)) return raw as EpisodeStateFilter;
  throw validationFailed([{ field: 'state', message: typeof raw === 'string' ? 'must be open, cleared or all' : notOneValue(raw) }]);
}

/** `code` of the fleet's alert list: one episode code, or absent for all. */
export function alertCode(raw: unknown): EpisodeCode | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === 'string' && (EPISODE_CODES as readonly string[]).includes(raw)) return raw as EpisodeCode;
  throw validationFailed([{ field: 'code', message: typeof raw === 'string' ? `must be one of ${EPISODE_CODES.join(', ')}` : notOneValue(raw) }]);
}

/** `q`: text to find in device names or at the start of ids, up to 100 characters. */
export function searchText(raw: unknown): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || raw.length > 100)
    throw validationFailed([{ field: 'q', message: typeof raw === 'string' ? 'must be at most 100 characters' : notOneValue(raw) }]);
  return raw;
}
