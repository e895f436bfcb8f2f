import { NO_COMMUNICATION, type EpisodeCode } from '@meter/consumption';
import type { AlertSettings } from './alert-settings';
import { burstVerdict } from './burst';
import { foldInto, type ChannelAlertState, type JudgedReading } from './channel-state';
import { leakVerdict } from './leak';
import { endsSilence } from './no-communication';
import { noFlowVerdict } from './no-flow';
import type { Verdict } from './verdict';

/** An episode opened or closed at a reading (`at`: its read_at). */
export type EpisodeTransition = { kind: 'raise'; code: EpisodeCode; at: number; message: string } | { kind: 'clear'; code: EpisodeCode; at: number };

/**
 * Judges a channel's new readings in time order, each later than
 * `state.latestAt`: the reading rules (LEAK, BURST, NO_FLOW) at every
 * reading, and the end of a NO_COMMUNICATION silence. An episode opens only
 * when none of its code is open and closes only when one is, so the result
 * depends on the readings alone, not on how they were split into batches.
 * `open` holds the channel's open codes before the first reading.
 */
export function evaluateReadings(
  state: ChannelAlertState,
  readings: readonly JudgedReading[],
  settings: AlertSettings,
  open: ReadonlySet<EpisodeCode>,
  nowMs: number,
): { state: ChannelAlertState; transitions: EpisodeTransition[] } {
  const isOpen = new Set(open);
  const transitions: EpisodeTransition[] = [];
  const apply = (code: EpisodeCode, at: number, verdict: Verdict) => {
    if (verdict.kind === 'raise' && !isOpen.has(code)) {
      isOpen.add(code);
      transitions.push({ kind: 'raise', code, at, message: verdict.message });
    } else if (verdict.kind === 'clear' && isOpen.delete(code)) {
      transitions.push({ kind: 'clear', code, at });
    }
  };
  // One copy per call, folded in place: no state object per reading.
  const current: ChannelAlertState = { ...state, tail: [...state.tail] };
  for (const reading of readings) {
    const previousAt = current.latestAt;
    const hour = foldInto(current, reading, settings.leakThresholdPerHour);
    const at = reading.readAt;
    apply('LEAK', at, leakVerdict(current, hour, settings.leakThresholdPerHour));
    apply('BURST', at, burstVerdict(previousAt, at, reading.delta, settings.burstThresholdPerHour));
    // An open NO_FLOW only waits for consumption: no calendar work per still reading.
    if (!isOpen.has('NO_FLOW') || reading.delta > 0) apply('NO_FLOW', at, noFlowVerdict(current, reading.delta, settings.noFlowDays, settings.timeZone));
    if (isOpen.has(NO_COMMUNICATION) && endsSilence(at, nowMs, settings.maxSilenceHours)) apply(NO_COMMUNICATION, at, { kind: 'clear' });
  }
  return { state: current, transitions };
}

/**
 * The state as of the last of `readings` (oldest first), rebuilt from stored
 * history after late readings changed it: folded without judging. `seed`
 * brings what lies before them (the channel's first reading, its last
 * consumption).
 */
export function foldHistory(seed: ChannelAlertState, readings: readonly JudgedReading[], leakThresholdPerHour: number): ChannelAlertState {
  const current: ChannelAlertState = { ...seed, tail: [...seed.tail] };
  for (const reading of readings) {
    foldInto(current, reading, leakThresholdPerHour);
    // What the seed knew of earlier readings stays: the first reading, and a later consumption than the window saw.
    if (seed.firstAt !== null) current.firstAt = seed.firstAt;
    if (seed.lastFlowAt !== null && (current.lastFlowAt === null || current.lastFlowAt < seed.lastFlowAt)) current.lastFlowAt = seed.lastFlowAt;
  }
  return current;
}
