import { describe, expect, it } from 'vitest';
import {
  firstIntervalStartAfter,
  intervalsOverlappingDays,
  latestReadingOf,
  readingAfter,
  readingAtOrBefore,
  resetReadBetween,
  runningTotalAt,
} from './day-answers';
import { DAY_MS, dayOf, type ReadingDay } from './reading-day';

/** A row of `ingest.readings` as ingest stores it: the interval ending at the reading and the running total. */
interface Row {
  readAt: number;
  value: number;
  prevAt: number | null;
  delta: number;
  reset: boolean;
  cum: number;
}

function rowsOf(readings: readonly { readAt: number; value: number }[]): Row[] {
  const rows: Row[] = [];
  for (const { readAt, value } of readings) {
    const prev = rows[rows.length - 1];
    const reset = prev !== undefined && value < prev.value;
    const delta = prev && !reset ? value - prev.value : 0;
    rows.push({ readAt, value, prevAt: prev?.readAt ?? null, delta, reset, cum: (prev?.cum ?? 0) + delta });
  }
  return rows;
}

/** The same readings as the compact store's day rows. */
function daysOf(rows: readonly Row[]): ReadingDay[] {
  const days: ReadingDay[] = [];
  rows.forEach((row, i) => {
    const day = dayOf(row.readAt);
    let last = days[days.length - 1];
    if (last?.day !== day) {
      const before = rows[i - 1];
      days.push((last = { day, readings: [], prevAt: before?.readAt ?? null, prevValue: before?.value ?? 0, cumBefore: before?.cum ?? 0 }));
    }
    last.readings.push({ us: (row.readAt - day * DAY_MS) * 1000, value: row.value, seq: i + 1 });
  });
  return days;
}

/** What day-rows.ts's spans load of a channel: the days [first, last], the last row before, the first `after` rows after. */
function loaded(days: readonly ReadingDay[], spans: readonly { first: number; last: number; before?: boolean; after?: number }[]): ReadingDay[] {
  const picked = new Set<ReadingDay>();
  for (const { first, last, before, after = 0 } of spans) {
    days.filter((d) => d.day >= first && d.day <= last).forEach((d) => picked.add(d));
    if (before)
      days
        .filter((d) => d.day < first)
        .slice(-1)
        .forEach((d) => picked.add(d));
    days
      .filter((d) => d.day > last)
      .slice(0, after)
      .forEach((d) => picked.add(d));
  }
  return [...picked].sort((a, b) => a.day - b.day);
}

/** The SQL fragments of reading-sql.ts, written out over the rows. */
const reference = {
  intervals: (rows: readonly Row[], from: number, to: number) => {
    const inside = rows.filter((r) => r.readAt >= from && r.readAt < to && r.prevAt !== null);
    const next = rows.find((r) => r.readAt >= to);
    return [...inside, ...(next && next.prevAt !== null && next.prevAt < to ? [next] : [])].map((r) => ({
      start: r.prevAt,
      end: r.readAt,
      delta: r.delta,
      reset: r.reset,
    }));
  },
  runningTotal: (rows: readonly Row[], at: number) => {
    const n = rows.find((r) => r.readAt >= at);
    if (n) return n.prevAt === null || n.readAt === at ? n.cum : n.cum - (n.delta * (n.readAt - at)) / (n.readAt - n.prevAt);
    return rows.findLast((r) => r.readAt < at)?.cum ?? 0;
  },
  readingAt: (rows: readonly Row[], op: '<=' | '>', at: number) => {
    const r = op === '<=' ? rows.findLast((s) => s.readAt <= at) : rows.find((s) => s.readAt > at);
    return r && { readAt: r.readAt, value: r.value, reset: r.reset };
  },
  firstIntervalAfter: (rows: readonly Row[], at: number) => rows.find((r) => r.readAt > at && r.prevAt !== null)?.prevAt ?? undefined,
  resetBetween: (rows: readonly Row[], from: number, to: number) => rows.some((r) => r.readAt >= from && r.readAt < to && r.reset),
};

/** A small deterministic generator (mulberry32). */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const START = Date.UTC(2026, 8, 28);

/** A channel's readings: irregular steps (minutes to days), midnights, resets, 3-decimal values. */
function series(seed: number, count: number): { readAt: number; value: number }[] {
  const next = random(seed);
  const readings: { readAt: number; value: number }[] = [];
  let at = START + Math.floor(next() * DAY_MS);
  let value = Math.round(next() * 1e6) / 1000;
  for (let i = 0; i < count; i++) {
    readings.push({ readAt: at, value });
    const step = next();
    at += step < 0.1 ? Math.ceil(next() * 4) * DAY_MS : step < 0.15 ? DAY_MS - (at % DAY_MS) : Math.ceil(next() * 7_200_000);
    value = next() < 0.03 ? Math.round(next() * 1000) / 1000 : Math.round((value + next() * 0.5) * 1000) / 1000;
  }
  return readings;
}

/** Instants to ask about: random ones over the span and past both ends, every reading, ±1 ms of some, midnights. */
function instants(seed: number, rows: readonly Row[]): number[] {
  const next = random(seed);
  const first = rows[0]?.readAt ?? START;
  const last = rows[rows.length - 1]?.readAt ?? START;
  const span = last - first + 6 * DAY_MS;
  const ats = Array.from({ length: 150 }, () => first - 3 * DAY_MS + Math.floor(next() * span));
  for (const r of rows) ats.push(r.readAt);
  for (const r of rows.filter((_, i) => i % 5 === 0)) ats.push(r.readAt - 1, r.readAt + 1);
  for (let day = dayOf(first) - 1; day <= dayOf(last) + 1; day++) ats.push(day * DAY_MS);
  return ats;
}

const CHANNELS: [string, { readAt: number; value: number }[]][] = [
  ['no readings', []],
  ['one reading', series(1, 1)],
  ['two readings', series(2, 2)],
  [
    'a reading at midnight, then the next days',
    [
      { readAt: START, value: 1 },
      { readAt: START + DAY_MS, value: 2 },
      { readAt: START + 3 * DAY_MS + 5, value: 2.5 },
    ],
  ],
  ...[3, 4, 5, 6].map((seed): [string, { readAt: number; value: number }[]] => [`irregular series ${seed}`, series(seed, 400)]),
];

describe("the day rows answer as the row store's SQL fragments, from only the rows the fetch loads", () => {
  it.each(CHANNELS)('%s', (_, readings) => {
    const rows = rowsOf(readings);
    const days = daysOf(rows);
    const ats = instants(readings.length + 7, rows);
    const next = random(ats.length);
    let windows = 0;
    for (const at of ats) {
      const day = dayOf(at);
      const around = loaded(days, [{ first: day, last: day, before: true, after: 1 }]);
      expect(Object.is(runningTotalAt(around, at), reference.runningTotal(rows, at)), `running total at ${at}`).toBe(true);
      expect(readingAtOrBefore(around, at)).toEqual(reference.readingAt(rows, '<=', at));
      expect(readingAfter(around, at)).toEqual(reference.readingAt(rows, '>', at));
      expect(firstIntervalStartAfter(loaded(days, [{ first: day, last: day, after: 2 }]), at)).toBe(reference.firstIntervalAfter(rows, at));
      // A window from here: another of the instants (windows ending before they start included), or a day or a month on.
      for (const to of [ats[Math.floor(next() * ats.length)], at + DAY_MS, at + 31 * DAY_MS]) {
        windows++;
        const [first, last] = [dayOf(at), dayOf(to)];
        const intervals = intervalsOverlappingDays(loaded(days, [{ first: Math.min(first, last), last, after: 1 }]), at, to);
        expect(intervals).toEqual(reference.intervals(rows, at, to));
        expect(resetReadBetween(loaded(days, [{ first, last }]), at, to)).toBe(reference.resetBetween(rows, at, to));
        // consumption: both running totals from one list holding the rows around each end
        const ends = loaded(days, [
          { first, last: first, before: true, after: 1 },
          { first: last, last, before: true, after: 1 },
        ]);
        expect(Object.is(runningTotalAt(ends, to) - runningTotalAt(ends, at), reference.runningTotal(rows, to) - reference.runningTotal(rows, at))).toBe(true);
      }
    }
    expect(windows).toBeGreaterThan(ats.length);
    expect(latestReadingOf(loaded(days, [{ first: Infinity, last: Infinity, before: true }]))).toEqual(
      rows.length === 0 ? undefined : { readAt: rows[rows.length - 1].readAt, value: rows[rows.length - 1].value },
    );
  });

  it('finds resets, sparse days and the first interval behind a first reading', () => {
    const rows = CHANNELS.slice(4).flatMap(([, readings]) => rowsOf(readings));
    expect(rows.filter((r) => r.reset).length).toBeGreaterThan(10);
    const days = daysOf(rowsOf(series(3, 400)));
    expect(days.some((d, i) => i > 0 && d.day > days[i - 1].day + 1)).toBe(true);
    const [first] = daysOf(rowsOf([{ readAt: START + 5, value: 1 }]));
    const [, second] = daysOf(
      rowsOf([
        { readAt: START + 5, value: 1 },
        { readAt: START + 3 * DAY_MS, value: 2 },
      ]),
    );
    // the first reading after the instant is the channel's first: the interval is the next row's
    expect(firstIntervalStartAfter([first, second], START)).toBe(START + 5);
    expect(firstIntervalStartAfter([first], START)).toBeUndefined();
  });
});
