import type { Queryable } from '@meter/read-model';
import { channelKeyer, visitIntervals, type ChannelKey, type ReadingRow, type StoredReading } from '../reading-store/reading-batch';
import { readingHistories } from '../reading-store/reading-history';
import type { AlarmUpdate } from '../readings/updates';
import { loadChannelContexts, saveChannelStates, type ChannelContext } from './channel-state-store';
import { applyDeviceAlarms } from './device-alarms';
import { closeEpisodes, openEpisodes, type EpisodeClear, type NewEpisode } from './episode-store';
import { DAY_MS, emptyChannelState, evaluateReadings, foldHistory, HOUR_MS, type ChannelAlertState, type EpisodeTransition, type JudgedReading } from './rules';

/** What one batch wrote that the alert rules judge. */
export interface AlertBatch {
  /** readings after their channel's latest stored one, as written */
  appends: readonly ReadingRow[];
  /** the latest stored reading of each channel before the batch, keyed `org\0device\0channel` */
  stored: ReadonlyMap<string, StoredReading>;
  /** channels whose stored history changed (late readings, corrections) */
  relinked: readonly ChannelKey[];
  alarms: readonly AlarmUpdate[];
  /** the clock a reading ends a NO_COMMUNICATION silence against */
  nowMs?: number;
}

type Work = ChannelKey & { context: ChannelContext; readings: JudgedReading[]; history?: 'continue' | 'judge-latest' };

const keyOf = (c: ChannelKey) => `${c.orgId}\u0000${c.deviceId}\u0000${c.channel}`;

/**
 * Judges the batch's readings and alarms in its transaction, set-based:
 * one query for the state of every touched channel, one to save it, and the
 * episodes and their outbox events only when something opens or closes
 * (docs/alerts-and-webhooks.md). Appended readings are judged one by one
 * from the saved state; a channel whose history changed is rebuilt from the
 * stored readings and judged at its latest reading.
 */
export async function recordAlerts(db: Queryable, batch: AlertBatch): Promise<void> {
  const work = new Map<string, Work>();
  const keyer = channelKeyer();
  let current: Work | undefined;
  let currentKey = '';
  visitIntervals(batch.appends, batch.stored, (row, _prev, delta, _reset, cum) => {
    const key = keyer(row);
    if (current === undefined || currentKey !== key) {
      currentKey = key;
      current = work.get(key);
      if (!current) work.set(key, (current = { orgId: row.orgId, deviceId: row.deviceId, channel: row.channel, context: undefined!, readings: [] }));
    }
    current.readings.push({ readAt: row.readAt, delta, cum });
  });
  for (const channel of batch.relinked) {
    const key = keyOf(channel);
    work.set(key, { ...channel, context: undefined!, readings: work.get(key)?.readings ?? [], history: 'judge-latest' });
  }
  if (work.size > 0) await judgeChannels(db, [...work.entries()], batch);
  if (batch.alarms.length > 0) await applyDeviceAlarms(db, batch.alarms);
}

async function judgeChannels(db: Queryable, entries: [string, Work][], batch: AlertBatch) {
  const contexts = await loadChannelContexts(
    db,
    entries.map(([, w]) => w),
  );
  const ready: Work[] = [];
  for (const [key, w] of entries) {
    const context = contexts.get(key);
    if (!context) continue; // no such device: nothing was written for it
    w.context = context;
    // A state saved as of the channel's latest stored reading is trusted; otherwise (none yet, or one the
    // readings moved past while the rules were off) a channel that had readings is rebuilt from them first.
    const storedAt = batch.stored.get(key)?.readAt;
    if (!w.history && storedAt !== undefined && (context.state === undefined || context.state.latestAt !== storedAt)) w.history = 'continue';
    if (!w.history && storedAt === undefined) context.state = undefined;
    ready.push(w);
  }
  const rebuilt = await rebuiltStates(db, ready, batch.stored);
  const nowMs = batch.nowMs ?? Date.now();
  const states: (ChannelKey & { state: ChannelAlertState })[] = [];
  const opened: NewEpisode[] = [];
  const closed: EpisodeClear[] = [];
  for (const w of ready) {
    const from = w.history ? rebuilt.get(keyOf(w)) : { state: w.context.state ?? emptyChannelState(), judge: w.readings };
    if (!from || from.judge.length === 0) continue;
    const result = evaluateReadings(from.state, from.judge, w.context.settings, w.context.open, nowMs);
    states.push({ orgId: w.orgId, deviceId: w.deviceId, channel: w.channel, state: result.state });
    episodeChanges(w, result.transitions, opened, closed);
  }
  await saveChannelStates(db, states);
  // Closing first: an episode opened by the same batch may take the place of the one it closes.
  await closeEpisodes(db, closed);
  await openEpisodes(db, opened);
}

/** The state to judge from and the readings to judge, for channels rebuilt from their stored history (one query for all). */
async function rebuiltStates(db: Queryable, work: readonly Work[], stored: ReadonlyMap<string, StoredReading>) {
  const needed = work.filter((w) => w.history);
  const histories = await readingHistories(
    db,
    needed.map((w) => ({
      orgId: w.orgId,
      deviceId: w.deviceId,
      channel: w.channel,
      // Continuing: the history before the batch's appends; judging afresh: everything up to the latest.
      upTo: w.history === 'continue' ? (stored.get(keyOf(w))?.readAt ?? null) : null,
      // NO_FLOW looks this far back for the channel's last consumption.
      flowWindowMs: (w.context.settings.noFlowDays + 2) * DAY_MS + HOUR_MS,
    })),
  );
  const result = new Map<string, { state: ChannelAlertState; judge: JudgedReading[] }>();
  for (const h of histories) {
    const w = needed.find((n) => n.orgId === h.orgId && n.deviceId === h.deviceId && n.channel === h.channel)!;
    const seed = { ...emptyChannelState(), firstAt: h.firstAt, lastFlowAt: h.lastFlowAt };
    const threshold = w.context.settings.leakThresholdPerHour;
    if (w.history === 'continue') result.set(keyOf(w), { state: foldHistory(seed, h.readings, threshold), judge: w.readings });
    else if (h.readings.length > 0) result.set(keyOf(w), { state: foldHistory(seed, h.readings.slice(0, -1), threshold), judge: h.readings.slice(-1) });
  }
  return result;
}

/** Transitions of one channel as episodes to open and open episodes to close; one opened and closed in the batch is written closed. */
function episodeChanges(channel: ChannelKey, transitions: readonly EpisodeTransition[], opened: NewEpisode[], closed: EpisodeClear[]) {
  const openedHere = new Map<string, NewEpisode>();
  for (const t of transitions) {
    if (t.kind === 'raise') {
      const episode: NewEpisode = { ...channel, code: t.code, raisedAt: t.at, clearedAt: null, message: t.message };
      opened.push(episode);
      openedHere.set(t.code, episode);
    } else {
      const episode = openedHere.get(t.code);
      if (episode) {
        episode.clearedAt = t.at;
        openedHere.delete(t.code);
      } else closed.push({ ...channel, code: t.code, at: t.at });
    }
  }
}
