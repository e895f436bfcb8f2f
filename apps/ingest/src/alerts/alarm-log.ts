import type { Queryable } from '@meter/read-model';
import type { AlarmUpdate } from '../readings/updates';
import type { LoggedAlarm } from './alarm-replay';

/** A device, channel and alarm code: the unit alarms are ordered in. */
export interface AlarmKey {
  orgId: string;
  deviceId: number;
  channel: number;
  code: string;
}

export const alarmKeyOf = (u: AlarmUpdate): AlarmKey => ({ orgId: u.orgId, deviceId: u.deviceId, channel: u.alarm.channel, code: u.alarm.code });

/**
 * How long a logged alarm is kept behind its code's latest: replicas reorder
 * messages within a pull window or an ack_wait (a minute), so an hour is
 * far beyond any message that can still arrive late. A code's latest is
 * always kept, to tell a late message from a new one.
 */
export const ALARM_LOG_HOURS = 1;

/**
 * Logs alarm messages (a redelivered one is logged once) and answers the
 * stream sequences of those newly logged, each marked `late` when a later
 * message of its device, channel and code was logged before it.
 */
export async function logAlarms(db: Queryable, alarms: readonly AlarmUpdate[], messageOf: (u: AlarmUpdate) => string): Promise<Map<number, boolean>> {
  if (alarms.length === 0) return new Map();
  const rows: { seq: number; late: boolean }[] = await db.query(
    `WITH u AS (
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::smallint[], $4::text[], $5::bigint[], $6::text[], $7::timestamptz[], $8::text[])
         AS u(org_id, device_id, channel, code, seq, state, at, message)),
     prior AS (
       SELECT l.org_id, l.device_id, l.channel, l.code, max(l.seq) AS seq
       FROM ingest.device_alarm_log l JOIN (SELECT DISTINCT org_id, device_id, channel, code FROM u) k USING (org_id, device_id, channel, code)
       GROUP BY 1, 2, 3, 4),
     logged AS (
       INSERT INTO ingest.device_alarm_log (org_id, device_id, channel, code, seq, state, at, message)
       SELECT * FROM u ON CONFLICT DO NOTHING
       RETURNING org_id, device_id, channel, code, seq)
     SELECT logged.seq::float8 AS seq, coalesce(logged.seq < prior.seq, false) AS late
     FROM logged LEFT JOIN prior USING (org_id, device_id, channel, code)`,
    [
      alarms.map((a) => a.orgId),
      alarms.map((a) => a.deviceId),
      alarms.map((a) => a.alarm.channel),
      alarms.map((a) => a.alarm.code),
      alarms.map((a) => a.seq),
      alarms.map((a) => a.alarm.state),
      alarms.map((a) => new Date(a.alarm.at).toISOString()),
      alarms.map(messageOf),
    ],
  );
  await pruneAlarmLog(db, alarms);
  return new Map(rows.map((r) => [r.seq, r.late]));
}

/** Every logged message of one device, channel and code, in stream order. */
export async function loggedAlarms(db: Queryable, key: AlarmKey): Promise<LoggedAlarm[]> {
  return db.query(
    `SELECT seq::float8 AS seq, state, (extract(epoch from at) * 1000)::float8 AS at, message FROM ingest.device_alarm_log
     WHERE org_id = $1 AND device_id = $2 AND channel = $3 AND code = $4 ORDER BY seq`,
    [key.orgId, key.deviceId, key.channel, key.code],
  );
}

/** Drops the logged alarms of these codes older than ALARM_LOG_HOURS, but each code's latest. */
async function pruneAlarmLog(db: Queryable, alarms: readonly AlarmUpdate[]) {
  await db.query(
    `DELETE FROM ingest.device_alarm_log l
     USING (SELECT DISTINCT * FROM unnest($1::text[], $2::bigint[], $3::smallint[], $4::text[]) AS k(org_id, device_id, channel, code)) k
     WHERE l.org_id = k.org_id AND l.device_id = k.device_id AND l.channel = k.channel AND l.code = k.code
       AND l.logged_at < now() - make_interval(hours => $5)
       AND l.seq < (SELECT max(m.seq) FROM ingest.device_alarm_log m
                    WHERE m.org_id = k.org_id AND m.device_id = k.device_id AND m.channel = k.channel AND m.code = k.code)`,
    [alarms.map((a) => a.orgId), alarms.map((a) => a.deviceId), alarms.map((a) => a.alarm.channel), alarms.map((a) => a.alarm.code), ALARM_LOG_HOURS],
  );
}
