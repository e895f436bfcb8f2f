import { displayValue, localDateOf, noDataAlert, registerResetAlert, roundDecimal, type Alert, type Projection } from '@meter/consumption';
import type { DeviceRecord, LatestReading } from '@meter/readings';

export interface ChannelFigures {
  channel: number;
  monthToDate: number;
  /** the month so far has any interval with data */
  monthCovered: boolean;
  monthResets: boolean;
  projection: Projection;
  latest: LatestReading | undefined;
}

/** Contract 6 panels of one channel, in a fixed order. */
export function channelPanels(device: DeviceRecord, zone: string, f: ChannelFigures) {
  const places = device.decimalPlaces;
  const panel = (type: string, title: string, value: number, subtitle: string | undefined, alerts: Alert[]) => {
    // display_value is `value` formatted (spec 2.3), so both come from the one rounded number.
    const rounded = roundDecimal(value, places);
    return {
      type,
      title,
      value: rounded,
      display_value: displayValue(rounded),
      unit: device.unit,
      ...(subtitle === undefined ? {} : { subtitle }),
      serie: device.serie,
      channel: f.channel,
      alerts,
    };
  };
  const monthAlerts = [...(f.monthCovered ? [] : [noDataAlert()]), ...(f.monthResets ? [registerResetAlert(1)] : [])];
  return [
    panel('CURRENT_CONSUMPTION', 'Current consumption', f.monthToDate, `Since ${f.projection.calculation_date.slice(0, 8)}01`, monthAlerts),
    panel(
      'DAILY_ESTIMATE',
      'Daily estimate',
      f.projection.average_daily_consumption,
      `Average of ${f.projection.days_used_for_calculation} completed days`,
      [],
    ),
    panel(
      'LAST_READING',
      'Last reading',
      f.latest?.value ?? 0,
      f.latest ? localTime(f.latest.readAt, zone) : undefined,
      f.latest ? [] : [{ code: 'NO_DATA', message: 'No reading has arrived for this channel yet.' }],
    ),
    panel('MONTHLY_PROJECTION', 'Monthly projection', f.projection.projected_value, `Projected to ${f.projection.projection_date}`, []),
  ];
}

/** `YYYY-MM-DD HH:MM (zone)`: the reading's local time in the zone in effect. */
function localTime(ms: number, zone: string): string {
  const time = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hourCycle: 'h23', hour: '2-digit', minute: '2-digit' }).format(ms);
  return `${localDateOf(ms, zone)} ${time} (${zone})`;
}
