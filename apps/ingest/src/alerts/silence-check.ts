import type { QueryRunner } from 'typeorm';
import { ADVISORY_LOCKS } from '@meter/persistence';
import { lockDevices } from '../devices/device-locks';
import { openEpisodes } from './episode-store';
import { noCommunicationMessage, silenceLimitPassedAt } from './rules';

/** Advisory lock of the silence check: one evaluator at a time across every ingest replica. */
export const SILENCE_CHECK_LOCK = ADVISORY_LOCKS.silenceCheck;

/**
 * NO_COMMUNICATION, judged by the clock (docs/alerts-and-webhooks.md): opens
 * an episode on every channel whose latest reading is more than its device's
 * `max_silence_hours` before `nowMs`, raised at the instant the limit passed.
 * Runs in the caller's transaction and only if no other replica is running
 * it (returns null then). Candidates are re-checked under their device
 * locks, so a batch that just stored a newer reading wins.
 */
export async function checkSilences(runner: QueryRunner, nowMs: number): Promise<number | null> {
  const [{ locked }]: { locked: boolean }[] = await runner.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [SILENCE_CHECK_LOCK]);
  if (!locked) return null;
  const now = new Date(nowMs).toISOString();
  const candidates: { o: string; d: number; c: number; latest: number; hours: number }[] = await runner.query(
    `SELECT s.org_id AS o, s.device_id::float8 AS d, s.channel::int AS c, (extract(epoch from s.latest_at) * 1000)::float8 AS latest, v.max_silence_hours AS hours
     FROM ingest.channel_alert_state s JOIN ingest.devices v ON v.org_id = s.org_id AND v.device_id = s.device_id
     WHERE s.latest_at < $1::timestamptz - interval '1 hour'
       AND s.latest_at < $1::timestamptz - v.max_silence_hours * interval '1 hour'
       AND NOT EXISTS (SELECT 1 FROM ingest.alert_episodes e WHERE e.org_id = s.org_id AND e.device_id = s.device_id
                         AND e.channel = s.channel AND e.code = 'NO_COMMUNICATION' AND e.state = 'open')
     ORDER BY 1, 2, 3 LIMIT 5000`,
    [now],
  );
  if (candidates.length === 0) return 0;
  await lockDevices(
    runner,
    candidates.map((c) => ({ orgId: c.o, deviceId: c.d })),
  );
  // Under the locks: only channels whose latest reading is still the one judged.
  const still: { i: number }[] = await runner.query(
    `SELECT u.i FROM unnest($1::int[], $2::text[], $3::bigint[], $4::smallint[], $5::float8[]) AS u(i, o, d, c, latest)
     JOIN ingest.channel_alert_state s ON s.org_id = u.o AND s.device_id = u.d AND s.channel = u.c
     WHERE (extract(epoch from s.latest_at) * 1000)::float8 = u.latest`,
    [candidates.map((_, i) => i), candidates.map((c) => c.o), candidates.map((c) => c.d), candidates.map((c) => c.c), candidates.map((c) => c.latest)],
  );
  const opened = await openEpisodes(
    runner,
    still.map(({ i }) => {
      const c = candidates[i];
      return {
        orgId: c.o,
        deviceId: c.d,
        channel: c.c,
        code: 'NO_COMMUNICATION' as const,
        raisedAt: silenceLimitPassedAt(c.latest, c.hours),
        clearedAt: null,
        message: noCommunicationMessage(c.latest, c.hours),
      };
    }),
  );
  return opened.length;
}
