import type { EpisodeCode } from '@meter/consumption';
import { PgArrayWriter } from '@meter/persistence';
import type { Queryable } from '@meter/read-model';
import type { ChannelKey } from '../reading-store/reading-batch';
import type { AlertSettings, ChannelAlertState } from './rules';

/** A channel's rule state (undefined before its first evaluation, or when it must be rebuilt from history), settings and open codes. */
export interface ChannelContext {
  state: ChannelAlertState | undefined;
  settings: AlertSettings;
  open: Set<EpisodeCode>;
}

const ms = (column: string) => `(extract(epoch from ${column}) * 1000)::float8`;

/**
 * Everything the rules need of the batch's channels, in one query: each
 * channel's state row, its device's thresholds and zone, and its open codes
 * (three index probes per channel). Keyed `org\0device\0channel`.
 */
export async function loadChannelContexts(db: Queryable, channels: readonly ChannelKey[]): Promise<Map<string, ChannelContext>> {
  const rows: {
    o: string;
    d: number;
    c: number;
    latest_at: number | null;
    first_at: number | null;
    run_since: number | null;
    last_still_at: number | null;
    last_flow_at: number | null;
    tail: number[] | null;
    has_state: boolean;
    leak: number;
    burst: number | null;
    no_flow_days: number;
    max_silence_hours: number;
    time_zone: string;
    open: EpisodeCode[] | null;
  }[] = await db.query(
    `SELECT k.o, k.d::float8 AS d, k.c::int AS c, s.org_id IS NOT NULL AS has_state,
       ${ms('s.latest_at')} AS latest_at, ${ms('s.first_at')} AS first_at, ${ms('s.run_since')} AS run_since,
       ${ms('s.last_still_at')} AS last_still_at, ${ms('s.last_flow_at')} AS last_flow_at, s.tail,
       d.leak_threshold_per_hour AS leak, d.burst_threshold_per_hour AS burst, d.no_flow_days, d.max_silence_hours, d.time_zone,
       (SELECT array_agg(e.code) FROM ingest.alert_episodes e
         WHERE e.org_id = k.o AND e.device_id = k.d AND e.channel = k.c AND e.state = 'open') AS open
     FROM unnest($1::text[], $2::bigint[], $3::smallint[]) AS k(o, d, c)
     JOIN ingest.devices d ON d.org_id = k.o AND d.device_id = k.d
     LEFT JOIN ingest.channel_alert_state s ON s.org_id = k.o AND s.device_id = k.d AND s.channel = k.c`,
    [channels.map((c) => c.orgId), channels.map((c) => c.deviceId), channels.map((c) => c.channel)],
  );
  const result = new Map<string, ChannelContext>();
  for (const r of rows) {
    const stored = r.has_state && r.tail !== null;
    result.set(`${r.o}\u0000${r.d}\u0000${r.c}`, {
      state: stored
        ? {
            latestAt: r.latest_at,
            firstAt: r.first_at,
            runSince: r.run_since,
            lastStillAt: r.last_still_at,
            lastFlowAt: r.last_flow_at,
            tail: r.tail!.map(Number),
          }
        : undefined,
      settings: {
        leakThresholdPerHour: r.leak,
        burstThresholdPerHour: r.burst,
        noFlowDays: r.no_flow_days,
        maxSilenceHours: r.max_silence_hours,
        timeZone: r.time_zone,
      },
      open: new Set(r.open ?? []),
    });
  }
  return result;
}

/** Writes the channels' states (one statement); `tail` travels flattened with each channel's offset and length. */
export async function saveChannelStates(db: Queryable, states: readonly (ChannelKey & { state: ChannelAlertState })[]): Promise<void> {
  if (states.length === 0) return;
  const n = states.length;
  const [org, device, channel, latest, first, run, still, flow, offset, length] = [
    PgArrayWriter.text(n),
    PgArrayWriter.int8(n),
    PgArrayWriter.int2(n),
    PgArrayWriter.timestamptz(n),
    PgArrayWriter.timestamptz(n),
    PgArrayWriter.timestamptz(n),
    PgArrayWriter.timestamptz(n),
    PgArrayWriter.timestamptz(n),
    PgArrayWriter.int8(n),
    PgArrayWriter.int8(n),
  ];
  const flat = PgArrayWriter.float8(n * 6);
  let at = 0;
  const time = (column: PgArrayWriter, value: number | null) => (value === null ? column.null() : column.timestamptz(value));
  for (const { orgId, deviceId, channel: c, state } of states) {
    org.text(orgId);
    device.int8(deviceId);
    channel.int2(c);
    time(latest, state.latestAt);
    time(first, state.firstAt);
    time(run, state.runSince);
    time(still, state.lastStillAt);
    time(flow, state.lastFlowAt);
    offset.int8(at);
    length.int8(state.tail.length);
    for (const value of state.tail) flat.float8(value);
    at += state.tail.length;
  }
  await db.query(
    `INSERT INTO ingest.channel_alert_state AS t (org_id, device_id, channel, latest_at, first_at, run_since, last_still_at, last_flow_at, tail)
     SELECT o, d, c, l, f, r, s, w, ($11::float8[])[(off + 1)::int : (off + len)::int]
     FROM unnest($1::text[], $2::bigint[], $3::smallint[], $4::timestamptz[], $5::timestamptz[], $6::timestamptz[], $7::timestamptz[],
                 $8::timestamptz[], $9::bigint[], $10::bigint[]) AS u(o, d, c, l, f, r, s, w, off, len)
     ON CONFLICT (org_id, device_id, channel) DO UPDATE SET latest_at = EXCLUDED.latest_at, first_at = EXCLUDED.first_at,
       run_since = EXCLUDED.run_since, last_still_at = EXCLUDED.last_still_at, last_flow_at = EXCLUDED.last_flow_at, tail = EXCLUDED.tail`,
    [org, device, channel, latest, first, run, still, flow, offset, length, flat].map((column) => column.finish()),
  );
}
