import { describe, expect, it } from 'vitest';
import { emptyChannelState, HOUR_MS, type JudgedReading } from './channel-state';
import type { EpisodeCode } from '@meter/consumption';
import { DEFAULT_ALERT_SETTINGS, type AlertSettings } from './alert-settings';
import { evaluateReadings, foldHistory, type EpisodeTransition } from './evaluate-readings';

const T0 = Date.UTC(2026, 10, 1);
const MIN = 60_000;

/** Readings from register steps: `steps[i]` is consumed in the interval ending at reading i + 1, `gap` ms apart. */
function readings(steps: readonly number[], options: { from?: number; gap?: number; start?: number } = {}): JudgedReading[] {
  const gap = options.gap ?? HOUR_MS;
  let at = options.from ?? T0;
  let cum = options.start ?? 0;
  const out: JudgedReading[] = [{ readAt: at, delta: 0, cum }];
  for (const step of steps) {
    at += gap;
    cum += step;
    out.push({ readAt: at, delta: step, cum });
  }
  return out;
}

const still = (n: number) => Array<number>(n).fill(0);
const flow = (n: number, per = 0.01) => Array<number>(n).fill(per);

function run(
  list: readonly JudgedReading[],
  settings: Partial<AlertSettings> = {},
  options: { open?: EpisodeCode[]; now?: number; batches?: number } = {},
): EpisodeTransition[] {
  const all: EpisodeTransition[] = [];
  let state = emptyChannelState();
  let open = new Set<EpisodeCode>(options.open ?? []);
  const size = Math.ceil(list.length / (options.batches ?? 1));
  for (let i = 0; i < list.length; i += size) {
    const result = evaluateReadings(
      state,
      list.slice(i, i + size),
      { ...DEFAULT_ALERT_SETTINGS, ...settings },
      open,
      options.now ?? list[list.length - 1].readAt,
    );
    state = result.state;
    for (const t of result.transitions) {
      all.push(t);
      if (t.kind === 'raise') open.add(t.code);
      else open.delete(t.code);
    }
    open = new Set(open);
  }
  return all;
}

const summary = (ts: EpisodeTransition[], code?: EpisodeCode) =>
  ts.filter((t) => !code || t.code === code).map((t) => `${t.kind} ${t.code} +${(t.at - T0) / HOUR_MS}h`);

describe('LEAK', () => {
  it.each([
    [
      '30 h of flow after still hours: raised at 24 h of flow, cleared by the first still hour',
      [...still(5), ...flow(30), ...still(3)],
      {},
      ['raise LEAK +29h', 'clear LEAK +36h'],
    ],
    ['23 h of flow: never', [...still(5), ...flow(23), ...still(3)], {}, []],
    ['exactly 24 h of flow: raised at its last hour', [...still(5), ...flow(24), ...still(1)], {}, ['raise LEAK +29h', 'clear LEAK +30h']],
    ['flow from the first reading: the 24 h are covered once the first reading is 24 h back', flow(26), {}, ['raise LEAK +24h']],
    ['flow at or below the threshold counts as still', [...still(2), ...flow(30, 0.005)], { leakThresholdPerHour: 0.005 }, []],
    ['flow above the threshold', [...still(2), ...flow(30, 0.006)], { leakThresholdPerHour: 0.005 }, ['raise LEAK +26h']],
    ['one still hour in the middle restarts the count', [...still(1), ...flow(20), 0, ...flow(20)], {}, []],
  ])('%s', (_name, steps, settings, expected) => {
    expect(summary(run(readings(steps), settings), 'LEAK')).toEqual(expected);
  });

  it('is not judged while readings are more than an hour apart', () => {
    expect(summary(run(readings(flow(40), { gap: 2 * HOUR_MS })), 'LEAK')).toEqual([]);
  });

  it('a gap in the readings restarts the 24 h coverage', () => {
    const before = readings([...still(1), ...flow(20)]);
    const after = readings(flow(30), { from: before[before.length - 1].readAt + 3 * HOUR_MS, start: before[before.length - 1].cum + 1 });
    // The hour after the gap is not measured; 24 h of hourly readings after it are needed.
    expect(summary(run([...before, ...after]), 'LEAK')).toEqual([`raise LEAK +${21 + 3 + 24}h`]);
  });

  it('quarter-hour readings: an hour is four intervals, one still quarter does not make a still hour', () => {
    const quarters = [...still(8), ...Array.from({ length: 30 * 4 }, (_, i) => (i % 4 === 1 ? 0 : 0.002))];
    expect(summary(run(readings(quarters, { gap: 15 * MIN })), 'LEAK')).toEqual(['raise LEAK +25.25h']);
  });

  it('tolerates readings a few seconds more than an hour apart', () => {
    const jittered = readings([...still(2), ...flow(30)], { gap: HOUR_MS + 20_000 });
    expect(run(jittered).filter((t) => t.code === 'LEAK')).toHaveLength(1);
  });

  it('gives the same episodes however the readings are split into batches', () => {
    const list = readings([...still(3), ...flow(30), ...still(2), ...flow(26), ...still(1)]);
    const whole = run(list);
    expect(whole.filter((t) => t.code === 'LEAK')).toHaveLength(4);
    for (const batches of [2, 7, list.length]) expect(run(list, {}, { batches })).toEqual(whole);
  });

  it('never raises twice while open', () => {
    expect(run(readings(flow(30)), {}, { open: ['LEAK'] }).filter((t) => t.code === 'LEAK')).toEqual([]);
  });
});

describe('BURST', () => {
  it.each([
    ['off without a threshold', [0.1, 5, 0.1], { burstThresholdPerHour: null }, HOUR_MS, []],
    [
      'an hour above the threshold, cleared by the next below it',
      [0.1, 5, 6, 0.1],
      { burstThresholdPerHour: 2 },
      HOUR_MS,
      ['raise BURST +2h', 'clear BURST +4h'],
    ],
    ['exactly the threshold is not above it', [2, 2], { burstThresholdPerHour: 2 }, HOUR_MS, []],
    ['half-hour intervals are judged as flow per hour', [0.5, 1.5, 0.2], { burstThresholdPerHour: 2 }, 30 * MIN, ['raise BURST +1h', 'clear BURST +1.5h']],
    ['intervals under 30 minutes are not judged', [5, 5, 5], { burstThresholdPerHour: 2 }, 15 * MIN, []],
  ])('%s', (_name, steps, settings, gap, expected) => {
    expect(summary(run(readings(steps, { gap }), settings), 'BURST')).toEqual(expected);
  });

  it('a threshold removed while open clears it at the next interval', () => {
    expect(summary(run(readings([1]), { burstThresholdPerHour: null }, { open: ['BURST'] }), 'BURST')).toEqual(['clear BURST +1h']);
  });
});

describe('NO_FLOW', () => {
  const DAY = 24 * HOUR_MS;
  it.each([
    [
      '30 days without consumption after a used day (UTC): raised on the first reading after the 30th still day',
      1,
      30,
      'UTC',
      [`raise NO_FLOW +${(30 + 1) * 24}h`],
    ],
    ['a shorter setting', 1, 3, 'UTC', [`raise NO_FLOW +${(3 + 1) * 24}h`]],
    ['one day: not at midnight after an evening of flow, but a whole still day later', 1, 1, 'UTC', [`raise NO_FLOW +${2 * 24}h`]],
    ['local days of the device: Madrid midnight is 23:00 UTC', 1, 3, 'Europe/Madrid', [`raise NO_FLOW +${5 * 24 - 1}h`]],
  ])('%s', (_name, usedDays, noFlowDays, timeZone, expected) => {
    // Consumption throughout day 0 (to 24:00 UTC), then still readings every hour for 40 days.
    const used = readings(flow(usedDays * 24));
    const last = used[used.length - 1];
    const stillDays = readings(still(40 * 24), { from: last.readAt, start: last.cum }).slice(1);
    const transitions = run([...used, ...stillDays], { noFlowDays, timeZone });
    expect(summary(transitions, 'NO_FLOW')).toEqual(expected);
    expect(transitions.find((t) => t.code === 'NO_FLOW')!.at - T0).toBeGreaterThanOrEqual((usedDays + noFlowDays) * DAY - HOUR_MS);
  });

  it('needs readings back to the start of the first day, and clears on consumption', () => {
    const list = readings([...still(3 * 24), 0.5, ...still(2)]);
    expect(summary(run(list, { noFlowDays: 3 }), 'NO_FLOW')).toEqual([`raise NO_FLOW +${3 * 24}h`, `clear NO_FLOW +${3 * 24 + 1}h`]);
  });
});

describe('NO_COMMUNICATION at ingest', () => {
  const now = T0 + 100 * HOUR_MS;
  it.each([
    ['a reading newer than the silence limit clears it', now - 10 * HOUR_MS, ['clear NO_COMMUNICATION +90h']],
    ['a backfill of older readings does not', now - 60 * HOUR_MS, []],
  ])('%s', (_name, from, expected) => {
    const list = readings(flow(3), { from });
    expect(
      summary(run(list, { maxSilenceHours: 48 }, { open: ['NO_COMMUNICATION'], now }), 'NO_COMMUNICATION').map((s) => s.replace(/\+[\d.]+h/, (m) => m)),
    ).toEqual(expected);
  });
});

describe('foldHistory', () => {
  it('rebuilds the state incremental evaluation reaches, from a window of history and a seed', () => {
    const list = readings([...still(3), ...flow(30)]);
    const incremental = evaluateReadings(emptyChannelState(), list, DEFAULT_ALERT_SETTINGS, new Set(), 0).state;
    const window = list.filter((r) => r.readAt >= list[list.length - 1].readAt - 26 * HOUR_MS);
    const seed = { ...emptyChannelState(), firstAt: list[0].readAt, lastFlowAt: incremental.lastFlowAt };
    const rebuilt = foldHistory(seed, window, 0);
    // What the rules read: the window's still hours (none), the first reading, the last consumption, the last hour.
    const relevant = ({ latestAt, firstAt, lastFlowAt, tail }: typeof rebuilt) => ({ latestAt, firstAt, lastFlowAt, tail });
    expect(relevant(rebuilt)).toEqual(relevant(incremental));
    // Both judge the next reading alike.
    const next = { readAt: list[list.length - 1].readAt + HOUR_MS, delta: 0.01, cum: list[list.length - 1].cum + 0.01 };
    expect(evaluateReadings(rebuilt, [next], DEFAULT_ALERT_SETTINGS, new Set(), 0).transitions).toEqual(
      evaluateReadings(incremental, [next], DEFAULT_ALERT_SETTINGS, new Set(), 0).transitions,
    );
  });
});
