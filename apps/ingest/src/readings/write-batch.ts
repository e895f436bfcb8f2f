import type { QueryRunner } from 'typeorm';
import { recordAlerts } from '../alerts/record-alerts';
import { appendedSpans, raisedAlarmSpans, recordReadingChanges } from '../change-log/reading-changes';
import { applyDeviceUpdate, registerUnknownDevices } from '../devices/device-store';
import { lockDevices } from '../devices/device-locks';
import { channelKeyer, latestPerKey, type ReadingRow } from '../reading-store/reading-batch';
import { writeReadingDays } from '../reading-store/reading-days';
import type { ChangedRange } from '../reading-store/reading-store';
import type { AlarmUpdate, DeviceUpdate } from './updates';

export interface BatchResult {
  /** readings inserted or corrected */
  changed: number;
  /** readings whose stored interval was recomputed against stored neighbours */
  relinked: number;
}

/**
 * Writes one batch into the read model inside the caller's transaction.
 * Devices of the batch are locked first (ascending lock keys), so two
 * ingest replicas never interleave on one device and never deadlock.
 */
export async function writeBatch(
  runner: QueryRunner,
  readings: readonly ReadingRow[],
  devices: readonly DeviceUpdate[],
  alarms: readonly AlarmUpdate[] = [],
  options: { alertRules?: boolean; nowMs?: number } = {},
): Promise<BatchResult> {
  await lockDevices(runner, [...devices, ...readings, ...alarms]);
  for (const update of [...devices].sort((a, b) => a.seq - b.seq)) await applyDeviceUpdate(runner, update);
  if (readings.length === 0) {
    if (alarms.length > 0) {
      await registerUnknownDevices(runner, alarmRows(alarms));
      await recordAlerts(runner, { appends: [], stored: new Map(), relinked: [], alarms, nowMs: options.nowMs });
      await recordReadingChanges(runner, raisedAlarmSpans(alarms));
    }
    return { changed: 0, relinked: 0 };
  }
  const rows = latestPerKey(readings);
  await registerUnknownDevices(runner, [...rows, ...alarmRows(alarms)]);
  const { appends, latest, late, relinked } = await writeReadingDays(runner, rows);
  // What the batch exports must restate (docs/exports.md): the spans whose intervals changed.
  const keyOf = channelKeyer();
  await recordReadingChanges(runner, [...appendedSpans(appends, (row) => latest.get(keyOf(row))?.readAt), ...late.map(lateSpan), ...raisedAlarmSpans(alarms)]);
  // Alert episodes from what was written, in the same transaction (docs/alerts-and-webhooks.md).
  const judged = options.alertRules === false ? { appends: [], relinked: [] } : { appends, relinked: late };
  await recordAlerts(runner, { ...judged, stored: latest, alarms, nowMs: options.nowMs });
  return { changed: appends.length + late.reduce((n, r) => n + r.count, 0), relinked };
}

/** An alarm of an unknown device registers it as a reading would: the alarm's channel and time. */
const alarmRows = (alarms: readonly AlarmUpdate[]): ReadingRow[] =>
  alarms.map((a) => ({ orgId: a.orgId, deviceId: a.deviceId, channel: a.alarm.channel, readAt: a.alarm.at, value: 0, seq: a.seq }));

/** A late reading's or a correction's span, widened to its stored neighbours when recorded. */
const lateSpan = (r: ChangedRange) => ({
  orgId: r.orgId,
  deviceId: r.deviceId,
  channel: r.channel,
  start: Date.parse(r.lo),
  end: Date.parse(r.hi),
  widen: true,
});
