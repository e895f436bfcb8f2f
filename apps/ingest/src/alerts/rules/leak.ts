import { CLOCK_TOLERANCE_MS, DAY_MS, HOUR_MS, type ChannelAlertState, type HourEnding } from './channel-state';
import { CLEAR, isoSecond, KEEP, raise, type Verdict } from './verdict';

/**
 * LEAK (continuous flow): the 24 hours ending at the latest reading hold no
 * still hour, an hour being still when it holds at most the threshold. Judged
 * only while readings are at most an hour apart (the 24 hours are covered by
 * such a run); the first still hour clears it.
 *
 * `state` has the reading folded in; `hour` is the hour ending at it.
 */
export function leakVerdict(state: ChannelAlertState, hour: HourEnding, thresholdPerHour: number): Verdict {
  if (hour.consumption === undefined) return KEEP;
  if (hour.consumption <= thresholdPerHour) return CLEAR;
  const latest = state.latestAt!;
  const covered = state.runSince! <= latest - DAY_MS + CLOCK_TOLERANCE_MS;
  // The window's hours end at readings from 23 h before the latest on.
  const stillInWindow = state.lastStillAt !== null && state.lastStillAt >= latest - 23 * HOUR_MS - CLOCK_TOLERANCE_MS;
  if (!covered || stillInWindow) return KEEP;
  return raise(`Water flowed in every hour of the 24 hours to ${isoSecond(latest)} (more than ${thresholdPerHour} per hour): a leak is likely.`);
}
