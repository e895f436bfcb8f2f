import { Inject, Injectable } from '@nestjs/common';
import {
  dailyConsumption,
  dataPointDate,
  decimalAndFormatted,
  formatWithUnit,
  lastThreeMonths,
  projectionWindow,
  resolvePeriod,
  roundDecimal,
  sumDays,
  type DailyConsumption,
  type Interval,
  type LocalDay,
} from '@meter/consumption';
import { validationFailed } from '@meter/http';
import type { DeviceRecord } from '@meter/readings';
import { deviceProjection } from '../projection/month-projection.service';
import { Clock } from '../read-model/clock';
import { notOneValue } from '../read-model/request-params';
import { ReadModel } from '../read-model/read-model';
import { seriesLabel } from './series-label';

/** Daily series (spec 2.4) and the three-month view (spec 2.5), one series per channel. */
@Injectable()
export class HistoryService {
  constructor(
    @Inject(ReadModel) private readonly readModel: ReadModel,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async history(orgId: string, deviceId: number, period: unknown, zoneOverride: string | undefined) {
    const now = this.clock.now();
    const zone = await this.zoneInEffect(orgId, deviceId, zoneOverride);
    const resolved =
      typeof period === 'string'
        ? resolvePeriod(period, now, zone)
        : { ok: false as const, message: `${notOneValue(period)}: 7D, 15D, CURRENT_MONTH or YYYY-MM` };
    if (!resolved.ok) {
      if (zoneOverride !== undefined) await this.readModel.device(orgId, deviceId); // an unknown device is a 404 before a bad period
      throw validationFailed([{ field: 'period', message: resolved.message }]);
    }
    const window = projectionWindow(now, zone);
    const read = await this.readModel.history(orgId, deviceId, resolved.days[0].start, resolved.days[resolved.days.length - 1].end, window);
    const device = read.device;
    const days = daily(device, read.intervals, resolved.days);
    const projection = deviceProjection(device, zone, window, read.windowConsumption);
    const places = device.decimalPlaces;
    const series = [...days].map(([channel, values]) => ({
      serie: device.serie,
      label: seriesLabel(device, channel),
      unit: device.unit,
      decimal_places: places,
      data_type: 'consumption',
      description: `Consumption per local day (${zone}) in ${device.unit}, spread linearly between readings`,
      data_points: values.map((d) => ({ date: dataPointDate(d.date), ...dayFigures(d, places, device.unit), alerts: d.alerts })),
      projection: { date: projection.window.projectionDate, value: roundDecimal(projection.channels.get(channel)!.projected_value, places) },
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
        `Average ${formatWithUnit(average, places, device.unit)} per day over ${begun} ${begun === 1 ? 'day' : 'days'}; ` +
        `projected ${formatWithUnit(projection.total.projected_value, places, device.unit)} for the month ending ${projection.window.projectionDate}.`,
    };
  }

  async threeMonths(orgId: string, deviceId: number, zoneOverride: string | undefined) {
    const now = this.clock.now();
    const zone = await this.zoneInEffect(orgId, deviceId, zoneOverride);
    const months = lastThreeMonths(now, zone);
    const all = months.flatMap((m) => m.days);
    const { device, intervals } = await this.readModel.history(orgId, deviceId, all[0].start, all[all.length - 1].end);
    const days = daily(device, intervals, all);
    const places = device.decimalPlaces;
    const format = (d: { value: number }) => decimalAndFormatted(d.value, places, device.unit);
    return {
      device_id: device.deviceId,
      time_zone: zone,
      series: [...days].map(([channel, values]) => {
        const byDate = new Map(values.map((v) => [v.date, v]));
        return {
          serie: device.serie,
          label: seriesLabel(device, channel),
          unit: device.unit,
          decimal_places: places,
          rows: months.map((month) => {
            const inMonth = month.days.map((d) => byDate.get(d.date)!);
            const total = sumDays(inMonth);
            return {
              date: month.firstDate,
              ...format(total),
              alerts: total.alerts,
              by_days: inMonth.map((d) => ({ date: d.date, ...dayFigures(d, places, device.unit), alerts: d.alerts })),
            };
          }),
        };
      }),
    };
  }

  /**
   * X-Timezone, or else the device's own zone. With X-Timezone the days are
   * known before the device is read, and one query reads the device with its
   * intervals (a 404 then comes from that query); without it, the device first.
   */
  private async zoneInEffect(orgId: string, deviceId: number, zoneOverride: string | undefined): Promise<string> {
    return zoneOverride ?? (await this.readModel.device(orgId, deviceId)).timeZone;
  }
}

/** A day's `value` and `value_fmt`: a day the readings do not cover is "0" (contract 6), any other its rounded consumption. */
function dayFigures(day: DailyConsumption, places: number, unit: string) {
  return decimalAndFormatted(day.value, day.alerts.some((a) => a.code === 'NO_DATA') ? 0 : places, unit);
}

/** Each channel's consumption per local day, from the intervals stored over those days. */
function daily(device: DeviceRecord, intervals: ReadonlyMap<number, readonly Interval[]>, days: readonly LocalDay[]): Map<number, DailyConsumption[]> {
  const result = new Map<number, DailyConsumption[]>();
  for (let channel = 1; channel <= device.channels; channel++) result.set(channel, dailyConsumption(intervals.get(channel) ?? [], days));
  return result;
}
