import {
  dayAlertCodes,
  episodesByDay,
  dailyConsumption,
  dataPointDate,
  dayDecimalPlaces,
  lastThreeMonths,
  projectionWindow,
  resolvePeriod,
  sumDays,
  type DailyConsumption,
  type Interval,
  type LocalDay,
  type Unit,
  type VolumeFormat,
} from '@meter/consumption';
import { validationFailed } from '@meter/http';
import type { DeviceRecord } from '@meter/read-model';
import type { DeviceReportReader } from './device-report-reader';
import { deviceProjection } from './device-projection';
import type { DailyHistory, ThreeMonthHistory } from './history.schemas';
import { projectionBody } from './projection-body';
import type { Projection } from './projection.schemas';
import { notOneValue } from './query-params';
import { seriesLabel } from './series-label';
import { deviceVolumes } from './x-unit';

/**
 * A device's daily history (DailyHistory), three-month view (ThreeMonthHistory)
 * and month projection (Projection), one series per channel: the one
 * implementation behind the gateway's consumption routes and the management
 * API's fleet routes, so the two cannot disagree.
 */
export class DeviceReports {
  constructor(
    private readonly reader: DeviceReportReader,
    private readonly now: () => number,
  ) {}

  /** `unit`: X-Unit, absent for the device's own unit. */
  async history(orgId: string, deviceId: number, period: unknown, zoneOverride: string | undefined, unit?: Unit): Promise<DailyHistory> {
    const now = this.now();
    const zone = await this.zoneInEffect(orgId, deviceId, zoneOverride);
    const resolved =
      typeof period === 'string'
        ? resolvePeriod(period, now, zone)
        : { ok: false as const, message: `${notOneValue(period)}: 7D, 15D, CURRENT_MONTH or YYYY-MM` };
    if (!resolved.ok) {
      if (zoneOverride !== undefined) await this.reader.device(orgId, deviceId); // an unknown device is a 404 before a bad period
      throw validationFailed([{ field: 'period', message: resolved.message }]);
    }
    const window = projectionWindow(now, zone);
    const [from, to] = [resolved.days[0].start, resolved.days[resolved.days.length - 1].end];
    const [read, episodes] = await Promise.all([this.reader.history(orgId, deviceId, from, to, window), this.reader.episodesRaised(orgId, deviceId, from, to)]);
    const device = read.device;
    const volumes = deviceVolumes(device, unit);
    const days = daily(device, read.intervals, resolved.days, episodes);
    const projection = deviceProjection(device, zone, window, read.windowConsumption);
    const places = device.decimalPlaces;
    const series: DailyHistory['series'] = [...days].map(([channel, values]) => ({
      serie: device.serie,
      label: seriesLabel(device, channel),
      unit: volumes.unit,
      decimal_places: places,
      data_type: 'consumption',
      description: `Consumption per local day (${zone}) in ${volumes.unit}, spread linearly between readings`,
      data_points: values.map((d) => ({ date: dataPointDate(d.date), ...dayFigures(d, places, volumes), alerts: d.alerts, quality: d.quality })),
      projection: { date: projection.window.projectionDate, value: volumes.round(projection.channels.get(channel)!.projected_value, places) },
    }));
    const total = [...days.values()].reduce((sum, values) => sum + sumDays(values).value, 0);
    // Per day that has begun: the current month by name also lists the days still to come.
    const begun = resolved.days.filter((d) => d.start <= now).length;
    const average = total / begun;
    return {
      device_id: device.deviceId,
      period: resolved.period,
      time_zone: zone,
      chart_type: resolved.chartType,
      series,
      summary:
        `Average ${volumes.withUnit(average, places)} per day over ${begun} ${begun === 1 ? 'day' : 'days'}; ` +
        `projected ${volumes.withUnit(projection.total.projected_value, places)} for the month ending ${projection.window.projectionDate}.`,
    };
  }

  async threeMonths(orgId: string, deviceId: number, zoneOverride: string | undefined, unit?: Unit): Promise<ThreeMonthHistory> {
    const now = this.now();
    const zone = await this.zoneInEffect(orgId, deviceId, zoneOverride);
    const months = lastThreeMonths(now, zone);
    const all = months.flatMap((m) => m.days);
    const [from, to] = [all[0].start, all[all.length - 1].end];
    const [{ device, intervals }, episodes] = await Promise.all([
      this.reader.history(orgId, deviceId, from, to),
      this.reader.episodesRaised(orgId, deviceId, from, to),
    ]);
    const days = daily(device, intervals, all, episodes);
    const places = device.decimalPlaces;
    const volumes = deviceVolumes(device, unit);
    return {
      device_id: device.deviceId,
      time_zone: zone,
      series: [...days].map(([channel, values]) => {
        const byDate = new Map(values.map((v) => [v.date, v]));
        return {
          serie: device.serie,
          label: seriesLabel(device, channel),
          unit: volumes.unit,
          decimal_places: places,
          rows: months.map((month) => {
            const inMonth = month.days.map((d) => byDate.get(d.date)!);
            const total = sumDays(inMonth);
            return {
              date: month.firstDate,
              ...volumes.figures(total.value, places),
              alerts: total.alerts,
              by_days: inMonth.map((d) => ({ date: d.date, ...dayFigures(d, places, volumes), alerts: d.alerts, quality: d.quality })),
            };
          }),
        };
      }),
    };
  }

  /** The current month's projection of one device, with its cost (GET /meter/v1/projection). */
  async projection(orgId: string, deviceId: number, zoneOverride: string | undefined, unit?: Unit): Promise<Projection> {
    const device = await this.reader.device(orgId, deviceId);
    const volumes = deviceVolumes(device, unit);
    const zone = zoneOverride ?? device.timeZone;
    const window = projectionWindow(this.now(), zone);
    const sums = await this.reader.consumption(orgId, [deviceId], window.from, window.to);
    return projectionBody(deviceProjection(device, zone, window, sums.get(deviceId) ?? new Map()), true, volumes);
  }

  /**
   * X-Timezone, or else the device's own zone. With X-Timezone the days are
   * known before the device is read, and one query reads the device with its
   * intervals (a 404 then comes from that query); without it, the device first.
   */
  private async zoneInEffect(orgId: string, deviceId: number, zoneOverride: string | undefined): Promise<string> {
    return zoneOverride ?? (await this.reader.device(orgId, deviceId)).timeZone;
  }
}

/** A day's `value` and `value_fmt`: a day the readings do not cover is "0", any other its rounded consumption. */
function dayFigures(day: DailyConsumption, places: number, volumes: VolumeFormat) {
  return volumes.figures(day.value, dayDecimalPlaces(day, places));
}

/**
 * Each channel's consumption per local day, from the intervals stored over
 * those days; a day's alerts also list the codes of the channel's episodes
 * raised that day (dayAlertCodes).
 */
function daily(
  device: DeviceRecord,
  intervals: ReadonlyMap<number, readonly Interval[]>,
  days: readonly LocalDay[],
  episodes: readonly RaisedEpisode[],
): Map<number, DailyConsumption[]> {
  const result = new Map<number, DailyConsumption[]>();
  for (let channel = 1; channel <= device.channels; channel++) {
    const values = dailyConsumption(intervals.get(channel) ?? [], days);
    const raised = episodes.some((e) => e.channel === channel)
      ? episodesByDay(
          days,
          episodes.filter((e) => e.channel === channel),
        )
      : undefined;
    result.set(channel, raised ? values.map((day, i) => ({ ...day, alerts: dayAlertCodes(day, raised[i]) })) : values);
  }
  return result;
}

type RaisedEpisode = Parameters<typeof dayAlertCodes>[1][number] & { channel: number };
