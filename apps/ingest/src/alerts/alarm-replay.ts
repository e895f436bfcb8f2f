/** One logged alarm message of a device, channel and code, in stream order by `seq`. */
export interface LoggedAlarm {
  seq: number;
  state: 'raised' | 'cleared';
  at: number;
  message: string;
}

/** An episode of one device, channel and code, times in epoch ms. */
export interface AlarmEpisode {
  raisedAt: number;
  clearedAt: number | null;
  message: string;
}

/**
 * The episodes a device's alarm messages of one code give when applied in
 * stream order, whatever order they arrived in: `raised` opens an episode
 * unless one is open (or one was raised at that very time), `cleared`
 * closes the open one if it was raised at or before it. `before` is an
 * episode open before the first logged message, which a clear may close.
 */
export function replayAlarms(logged: readonly LoggedAlarm[], before: AlarmEpisode | null = null): AlarmEpisode[] {
  const episodes: AlarmEpisode[] = before ? [{ ...before, clearedAt: null }] : [];
  let open: AlarmEpisode | null = episodes[0] ?? null;
  for (const alarm of [...logged].sort((a, b) => a.seq - b.seq)) {
    if (alarm.state === 'raised') {
      if (open || episodes.some((e) => e.raisedAt === alarm.at)) continue;
      open = { raisedAt: alarm.at, clearedAt: null, message: alarm.message };
      episodes.push(open);
    } else if (open && open.raisedAt <= alarm.at) {
      open.clearedAt = alarm.at;
      open = null;
    }
  }
  return episodes;
}
