import { Inject, Injectable } from '@nestjs/common';
import {
  dailyConsumption,
  dataPointDate,
  formatDecimal,
  formatWithUnit,
  lastThreeMonths,
  resolvePeriod,
  roundDecimal,
  sumDays,
  type DailyConsumption,
  type LocalDay,
} from '@meter/consumption';
import { validationFailed } from '@meter/http';
import type { DeviceRecord } from '@meter/readings';
import { MonthProjectionService } from '../projection/month-projection.service';
import { Clock } from '../read-model/clock';
import { ReadModel } from '../read-model/read-model';
import { seriesLabel } from './series-label';

/** Daily series (spec 2.4) and the three-month view (spec 2.5), one series per channel. */
@Injectable()
export class HistoryService {
  constructor(
    @Inject(ReadModel) private readonly readModel: ReadModel,
    @Inject(MonthProjectionService) private readonly projections: MonthProjectionService,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async history(orgId: string, deviceId: number, period: unknown, zoneOverride: string | undefined) {
    if (typeof period !== 'string') throw validationFailed([{ field: 'period', message: 'is required: 7D, 15D, CURRENT_MONTH or YYYY-MM' }]);
    const device = await this.readModel.device(orgId, deviceId);
    const zone = zoneOverride ?? device.timeZone;
    const resolved = resolvePeriod(period, this.clock.now(), zone);
    if (!resolved.ok) throw validationFailed([{ field: 'period', message: resolved.message }]);
    const [days, projected] = await Promise.all([this.daily(orgId, device, resolved.days), this.projections.project(orgId, [device], zoneOverride)]);
    const projection = projected.get(deviceId)!;
    const places = device.decimalPlaces;
    const series = [...days].map(([channel, values]) => ({
      serie: device.serie,
      label: seriesLabel(device, channel),
      unit: device.unit,
      decimal_places: places,
      data_type: 'consumption',
      description: `Consumption per local day (${zone}) in ${device.unit}, spread linearly between readings`,
      data_points: values.map((d) => ({
        date: dataPointDate(d.date),
        value: formatDecimal(d.value, places),
        value_fmt: formatWithUnit(d.value, places, device.unit),
        alerts: d.alerts,
      })),
      projection: { date: projection.window.projectionDate, value: roundDecimal(projection.channels.get(channel)!.projected_value, places) },
    }));
    const total = [...days.values()].reduce((sum, values) => sum + sumDays(values).value, 0);
    const average = total / resolved.days.length;
    return {
      device_id: device.deviceId,
      period: resolved.period,
      time_zone: zone,
      chart_type: resolved.chartType,
      series,
      summary:
        `Average ${formatWithUnit(average, places, device.unit)} per day over ${resolved.days.length} ${resolved.days.length === 1 ? 'day' : 'days'}; ` +
        `projected ${formatWithUnit(projection.total.projected_value, places, device.unit)} for the month ending ${projection.window.projectionDate}.`,
    };
  }

  async threeMonths(orgId: string, deviceId: number, zoneOverride: string | undefined) {
    const device = await this.readModel.device(orgId, deviceId);
    const zone = zoneOverride ?? device.timeZone;
    const months = lastThreeMonths(this.clock.now(), zone);
    const days = await this.daily(orgId, device, months.flatMap((m) => m.days));
    const places = device.decimalPlaces;
    const format = (d: { value: number }) => ({ value: formatDecimal(d.value, places), value_fmt: formatWithUnit(d.value, places, device.unit) });
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
              by_days: inMonth.map((d) => ({ date: d.date, ...format(d), alerts: d.alerts })),
            };
          }),
        };
      }),
    };
  }

  /** Each channel's consumption per local day, from the intervals stored over those days. */
  private async daily(orgId: string, device: DeviceRecord, days: readonly LocalDay[]): Promise<Map<number, DailyConsumption[]>> {
    const intervals = await this.readModel.intervals(orgId, device.deviceId, days[0].start, days[days.length - 1].end);
    const result = new Map<number, DailyConsumption[]>();
    for (let channel = 1; channel <= device.channels; channel++) result.set(channel, dailyConsumption(intervals.get(channel) ?? [], days));
    return result;
  }
}
