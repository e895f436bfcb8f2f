import { displayValue, localDateOf, noDataAlert, registerResetAlert, volumeFormat, type Alert, type Projection, type VolumeFormat } from '@meter/consumption';
import type { DeviceRecord, LatestReading } from '@meter/read-model';
import type { Panel } from './dashboard.schemas';

interface ChannelFigures {
  channel: number;
  monthToDate: number;
  /** the month so far has any interval with data */
  monthCovered: boolean;
  monthResets: boolean;
  projection: Projection;
  latest: LatestReading | undefined;
  /** how the panels write volumes: X-Unit's unit; absent, the device's */
  volumes?: VolumeFormat;
  /** the channel's open alert episodes: every panel of the channel shows them */
  openAlerts: Alert[];
}

/** The four panels of one channel, in a fixed order. */
export function channelPanels(device: DeviceRecord, zone: string, f: ChannelFigures): Panel[] {
  const places = device.decimalPlaces;
  const volumes = f.volumes ?? volumeFormat(device.unit);
  const panel = (type: Panel['type'], title: string, value: number, subtitle: string | undefined, alerts: Alert[]): Panel => {
    // display_value is `value` formatted, so both come from the one rounded number.
    const rounded = volumes.round(value, places);
    return {
      type,
      title,
      value: rounded,
      display_value: displayValue(rounded),
      unit: volumes.unit,
      ...(subtitle === undefined ? {} : { subtitle }),
      serie: device.serie,
      channel: f.channel,
      alerts: f.openAlerts.length > 0 ? [...alerts, ...f.openAlerts] : alerts,
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
