import type { QueryRunner } from 'typeorm';
import { widenToNeighbours } from '../reading-store/reading-history';
import type { AlarmUpdate } from '../readings/updates';

/**
 * Change tracking for the batch exports' restatement (docs/exports.md): each
 * batch write records, per organization, the spans of time whose stored
 * intervals it changed, stamped with its transaction id. A day exported under
 * a snapshot that does not see such a change overlapping it is exported again.
 */

/** A span of one channel whose intervals a batch changed; `widen`: stretch it to the stored neighbours (late readings, corrections). */
export interface ChangedSpan {
  orgId: string;
  deviceId: number;
  channel: number;
  /** epoch ms */
  start: number;
  end: number;
  widen: boolean;
}

/**
 * Records the batch's changed spans, merged per organization into islands of
 * overlapping time (live traffic of a whole fleet is one row per batch). A
 * late reading or a correction changes the intervals from its predecessor to
 * its successor, so those spans are widened to them first.
 */
export async function recordReadingChanges(runner: QueryRunner, spans: readonly ChangedSpan[]): Promise<void> {
  if (spans.length === 0) return;
  const all = [
    ...spans.filter((s) => !s.widen),
    ...(await widenToNeighbours(
      runner,
      spans.filter((s) => s.widen),
    )),
  ];
  await runner.query(
    `WITH spans AS (
       SELECT * FROM unnest($1::text[], $2::timestamptz[], $3::timestamptz[]) AS s(org_id, lo, hi)
     ), reach AS (
       SELECT org_id, lo, hi, max(hi) OVER (PARTITION BY org_id ORDER BY lo, hi ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS reached
       FROM spans
     ), islands AS (
       SELECT org_id, lo, hi, count(*) FILTER (WHERE reached IS NULL OR lo > reached) OVER (PARTITION BY org_id ORDER BY lo, hi) AS island
       FROM reach
     )
     INSERT INTO ingest.reading_changes (org_id, span_start, span_end)
     SELECT org_id, min(lo), max(hi) FROM islands GROUP BY org_id, island`,
    [all.map((s) => s.orgId), all.map((s) => new Date(s.start).toISOString()), all.map((s) => new Date(s.end).toISOString())],
  );
}

/**
 * Appended readings as spans, merged per organization before they reach SQL:
 * each channel's span runs from its stored latest reading (or its first
 * appended one) to its last appended one.
 */
export function appendedSpans(
  rows: readonly { orgId: string; deviceId: number; channel: number; readAt: number }[],
  storedLatest: (row: { orgId: string; deviceId: number; channel: number }) => number | undefined,
): ChangedSpan[] {
  const perOrg = new Map<string, { start: number; end: number }[]>();
  for (const row of rows) {
    const start = Math.min(storedLatest(row) ?? row.readAt, row.readAt);
    const list = perOrg.get(row.orgId) ?? [];
    list.push({ start, end: row.readAt });
    perOrg.set(row.orgId, list);
  }
  const spans: ChangedSpan[] = [];
  for (const [orgId, list] of perOrg) {
    list.sort((a, b) => a.start - b.start);
    let current = { ...list[0] };
    for (const span of list.slice(1)) {
      if (span.start <= current.end) current.end = Math.max(current.end, span.end);
      else {
        spans.push({ orgId, deviceId: 0, channel: 0, ...current, widen: false });
        current = { ...span };
      }
    }
    spans.push({ orgId, deviceId: 0, channel: 0, ...current, widen: false });
  }
  return spans;
}

/**
 * A raised alarm can open an episode on a day already exported (a collector
 * that reports late): the day's `alerts` column changes, so its instant is a
 * changed span too. A clear changes no day's alerts (they list episodes by
 * the day they were raised).
 */
export function raisedAlarmSpans(alarms: readonly AlarmUpdate[]): ChangedSpan[] {
  return alarms
    .filter((a) => a.alarm.state === 'raised')
    .map((a) => ({ orgId: a.orgId, deviceId: a.deviceId, channel: a.alarm.channel, start: a.alarm.at, end: a.alarm.at, widen: false }));
}
