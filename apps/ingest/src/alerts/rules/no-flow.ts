import { addDays, localDateOf, startOfLocalDay } from '@meter/consumption';
import { DAY_MS, HOUR_MS, type ChannelAlertState } from './channel-state';
import { CLEAR, KEEP, raise, type Verdict } from './verdict';

/** A local day starts at most this far from where 24 h steps put it (DST changes are 1 h at most, Lord Howe's 30 min). */
const DAY_SLACK_MS = 2 * HOUR_MS;

/**
 * NO_FLOW: no consumption over the last `days` whole local days before the
 * latest reading's day (and none since), while the readings go back to the
 * start of the first of them. Consumption clears it. Whole days, so that a
 * meter still since 23:00 is not "a day without consumption" at midnight.
 *
 * `state` has the reading folded in; `delta` is the reading's interval. The
 * local calendar is consulted only when the answer depends on it.
 */
export function noFlowVerdict(state: ChannelAlertState, delta: number, days: number, zone: string): Verdict {
  if (delta > 0) return CLEAR;
  const latest = state.latestAt!;
  // The first of the days starts between latest - (days + 1) x 24 h and latest - days x 24 h, give or take DST.
  const latestPossibleStart = latest - days * DAY_MS + DAY_SLACK_MS;
  if (state.firstAt! > latestPossibleStart) return KEEP;
  if (state.lastFlowAt !== null && state.lastFlowAt > latestPossibleStart) return KEEP;
  const start = startOfLocalDay(addDays(localDateOf(latest, zone), -days), zone);
  if (state.firstAt! > start || (state.lastFlowAt !== null && state.lastFlowAt > start)) return KEEP;
  return raise(`No consumption over the last ${days} local ${days === 1 ? 'day' : 'days'} (${zone}), since ${localDateOf(start, zone)}.`);
}
