import { dailyConsumption, dayAlertCodes, dayDecimalPlaces, formatDecimal, registerAt, type LocalDay, type Quality } from '@meter/consumption';
import type { ChannelDay } from '@meter/read-model';

/** One row of a data file (docs/exports.md, "Columns"); null is an empty CSV field and a JSON null. */
export interface ExportRow {
  device_id: number;
  channel: number;
  date: string;
  consumption: string;
  unit: string;
  register_start: string | null;
  register_end: string | null;
  alerts: string | null;
  quality: Quality;
}

/**
 * A channel's row for one local day, from the same intervals and the same
 * arithmetic as the history route (`dailyConsumption`), written the same way
 * (`dayDecimalPlaces`), so `consumption` is exactly the history's value for
 * that day and zone, and `alerts` the history day's codes (`dayAlertCodes`:
 * its own and those of the alert episodes raised that day). The registers are the register at the day's start and
 * at its end (the next day's start), interpolated between readings; null
 * where the readings do not reach.
 */
export function exportRow(channel: ChannelDay, day: LocalDay): ExportRow {
  const [daily] = dailyConsumption(channel.intervals, [day]);
  const places = channel.decimalPlaces;
  const alerts = dayAlertCodes(daily, channel.raised);
  const register = (value: number | undefined) => (value === undefined ? null : formatDecimal(value, places));
  return {
    device_id: channel.deviceId,
    channel: channel.channel,
    date: day.date,
    consumption: formatDecimal(daily.value, dayDecimalPlaces(daily, places)),
    unit: channel.unit,
    register_start: register(registerAt(day.start, channel.startBefore, channel.startAfter)),
    register_end: register(registerAt(day.end, channel.endBefore, channel.endAfter)),
    alerts: alerts.length ? alerts.map((a) => a.code).join('|') : null,
    quality: daily.quality,
  };
}
