import { DAY_MS, dayOf, readAtOf, walkDay, type ReadingDay, type DayReading } from '@meter/read-model';
import type { ReadingRow, StoredReading } from './reading-batch';

/**
 * How a batch of one channel's readings changes its day rows in the compact
 * store (`ingest.reading_days`): pure, so the arithmetic is tested without a
 * database. The rules are those of the row-per-reading store
 * (docs/read-model.md, "How a batch is written"): a new instant is inserted,
 * a different value from a later stream sequence corrects the stored one,
 * anything else changes nothing; each reading's interval runs from the
 * reading before it, a decrease is a reset (delta 0), and the running total
 * adds the deltas in order.
 */

/** What the writer loaded of one channel around a batch. */
export interface LoadedChannel {
  /** the last day row before the batch's first day */
  before: ReadingDay | null;
  /** the stored day rows from the batch's first day to its last, ascending */
  span: ReadingDay[];
  /** the first day row after the batch's last day */
  next: ReadingDay | null;
  /** the channel's latest day row */
  latest: ReadingDay | null;
}

/** What merging a batch into one channel did. */
export interface MergedChannel {
  /** day rows to write (new, or with changed readings or bases), ascending */
  writes: ReadingDay[];
  /** what to add to the running total before every day row after `shiftAfter` (0: nothing) */
  shift: number;
  shiftAfter: number;
  /** readings after the channel's latest stored one */
  appends: ReadingRow[];
  /** the span (epoch ms) and number of late readings and corrections that changed stored ones */
  late: { lo: number; hi: number; count: number } | null;
  /** the channel's latest stored reading before the batch */
  latest: StoredReading | null;
  /** stored readings whose interval changed because of late readings or corrections */
  relinked: number;
}

const usOf = (readAt: number, day: number) => Math.round((readAt - day * DAY_MS) * 1000);

/** Merges one channel's batch rows (one per instant) into its loaded day rows. */
export function mergeChannel(loaded: LoadedChannel, rows: readonly ReadingRow[]): MergedChannel {
  const end = loaded.latest ? walkDay(loaded.latest) : null;
  const latest = end && end.at !== null ? { readAt: end.at, value: end.value, cum: end.cum } : null;
  const days = new Map<number, ReadingDay>(loaded.span.map((d) => [d.day, { ...d, readings: [...d.readings] }]));
  const changed = new Set<number>();
  const appends: ReadingRow[] = [];
  for (const row of rows) {
    const isAppend = latest === null || row.readAt > latest.readAt;
    if (isAppend) appends.push(row);
    const day = dayOf(row.readAt);
    let target = days.get(day);
    if (!target) days.set(day, (target = { day, readings: [], prevAt: null, prevValue: 0, cumBefore: 0 }));
    const us = usOf(row.readAt, day);
    const i = lowerBound(target.readings, us);
    const stored = target.readings[i];
    const reading = { us, value: row.value, seq: row.seq };
    if (stored?.us !== us) target.readings.splice(i, 0, reading);
    else if (stored.seq < row.seq && stored.value !== row.value) target.readings[i] = reading;
    else continue;
    if (!isAppend) changed.add(row.readAt);
  }

  const stored = new Map(loaded.span.map((d) => [d.day, d]));
  const writes: ReadingDay[] = [];
  let state = loaded.before ? walkDay(loaded.before) : { at: null, value: 0, cum: 0 };
  const rebased: ReadingDay[] = [];
  for (const day of [...days.keys()].sort((a, b) => a - b)) {
    const merged = { ...days.get(day)!, prevAt: state.at, prevValue: state.value, cumBefore: state.cum };
    const before = stored.get(day);
    if (!before || !sameBases(before, merged) || before.readings.length !== merged.readings.length || changedIn(merged, changed)) writes.push(merged);
    rebased.push(merged);
    state = walkDay(merged);
  }
  let shift = 0;
  let shiftAfter = 0;
  if (loaded.next) {
    const next = { ...loaded.next, prevAt: state.at, prevValue: state.value, cumBefore: state.cum };
    if (!sameBases(loaded.next, next)) {
      writes.push(next);
      shift = walkDay(next).cum - walkDay(loaded.next).cum;
      shiftAfter = next.day;
    }
    rebased.push(next);
  }
  const relinked = changed.size === 0 ? 0 : countRelinked([...loaded.span, ...(loaded.next ? [loaded.next] : [])], rebased, changed);
  const ats = [...changed];
  const late = ats.length === 0 ? null : { lo: Math.min(...ats), hi: Math.max(...ats), count: ats.length };
  return { writes, shift, shiftAfter, appends, late, latest, relinked };
}

const sameBases = (a: ReadingDay, b: ReadingDay) => a.prevAt === b.prevAt && Object.is(a.prevValue, b.prevValue) && Object.is(a.cumBefore, b.cumBefore);

function changedIn(day: ReadingDay, changed: ReadonlySet<number>): boolean {
  if (changed.size === 0) return false;
  return day.readings.some((r) => changed.has(readAtOf(day.day, r.us)));
}

function lowerBound(readings: readonly DayReading[], us: number): number {
  let lo = 0;
  let hi = readings.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (readings[mid].us < us) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Stored readings, other than the changed ones, whose interval (start, delta, reset) differs after the merge. */
function countRelinked(before: readonly ReadingDay[], after: readonly ReadingDay[], changed: ReadonlySet<number>): number {
  const intervals = new Map<number, string>();
  for (const day of before) walkDay(day, (_, at, prevAt, delta, reset) => intervals.set(at, `${prevAt}:${delta}:${reset}`));
  let relinked = 0;
  for (const day of after)
    walkDay(day, (_, at, prevAt, delta, reset) => {
      const old = intervals.get(at);
      if (old !== undefined && !changed.has(at) && old !== `${prevAt}:${delta}:${reset}`) relinked++;
    });
  return relinked;
}
