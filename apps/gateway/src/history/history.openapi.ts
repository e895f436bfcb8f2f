import { dataPointDate, lastThreeMonths, resolvePeriod, volumeFormat, type LocalDay, type Quality } from '@meter/consumption';
import { Documented, jsonResponse, validationFailed } from '@meter/http';
import { EXAMPLE_DEVICE, EXAMPLE_NOW, EXAMPLE_PROJECTION, EXAMPLE_VOLUMES, exampleDay, exampleWithUnit } from '../api/examples';
import { deviceIdQuery, INVALID_DEVICE_ID, INVALID_TIME_ZONE, invalidRequest, RATE_LIMIT_STATE, UNKNOWN_DEVICE } from '../request/request-params.openapi';
import { consumptionHeaders, INVALID_UNIT } from '../units/x-unit.openapi';
import { dailyHistoryQuery, dailyHistorySchema, threeMonthHistorySchema, type DailyHistory, type ThreeMonthHistory } from './history.schemas';

const { id, name, zone, serie, unit, decimalPlaces } = EXAMPLE_DEVICE;
const SERIES_HEAD = { serie, label: name, unit, decimal_places: decimalPlaces };

function daysOf(period: string): LocalDay[] {
  const resolved = resolvePeriod(period, EXAMPLE_NOW, zone);
  if (!resolved.ok) throw new Error(resolved.message);
  return resolved.days;
}

/** The answer to a period the history refuses, as history.service.ts gives it. */
function periodProblem(period: string) {
  const resolved = resolvePeriod(period, EXAMPLE_NOW, zone);
  if (resolved.ok) throw new Error(`period ${period} is valid`);
  return validationFailed([{ field: 'period', message: resolved.message }]);
}

/** A day of an example series: its consumption (or none), its quality and the register resets read in it. */
interface ExampleDay {
  value: number | 'no data';
  quality: Quality;
  resets?: number;
}

/**
 * The last 7 days of device 1042: its collector was offline from the 15th at 22:00 to the 17th at 07:00, so those
 * three days are partly spread over that 33-hour interval; a register reset on the 18th; today so far.
 */
const LAST_7_DAYS: ExampleDay[] = [
  { value: 1.262, quality: 'ESTIMATED' },
  { value: 1.118, quality: 'ESTIMATED' },
  { value: 1.297, quality: 'ESTIMATED' },
  { value: 0.904, quality: 'ACTUAL', resets: 1 },
  { value: 1.305, quality: 'ACTUAL' },
  { value: 1.276, quality: 'ACTUAL' },
  { value: 0.512, quality: 'ACTUAL' },
];

/** Device 1057, installed on the 19th at 09:00: no reading covers the days before. */
const NEW_METER_7_DAYS: ExampleDay[] = [
  ...Array.from({ length: 4 }, (): ExampleDay => ({ value: 'no data', quality: 'MISSING' })),
  { value: 0.645, quality: 'ACTUAL' },
  { value: 1.102, quality: 'ACTUAL' },
  { value: 0.433, quality: 'ACTUAL' },
];

/** The 7D history of a device with these days, written by `volumes`. */
function sevenDays(deviceId: number, label: string, days: ExampleDay[], projected: number, volumes = EXAMPLE_VOLUMES): DailyHistory {
  const total = days.reduce<number>((sum, day) => sum + (day.value === 'no data' ? 0 : day.value), 0);
  return {
    device_id: deviceId,
    period: '7D',
    time_zone: zone,
    chart_type: 'BAR',
    series: [
      {
        serie,
        label,
        unit: volumes.unit,
        decimal_places: decimalPlaces,
        data_type: 'consumption',
        description: `Consumption per local day (${zone}) in ${volumes.unit}, spread linearly between readings`,
        data_points: daysOf('7D').map((day, i) => ({
          date: dataPointDate(day.date),
          ...exampleDay(days[i].value, days[i].resets, volumes),
          quality: days[i].quality,
        })),
        projection: { date: EXAMPLE_PROJECTION.projection_date, value: volumes.round(projected, decimalPlaces) },
      },
    ],
    summary:
      `Average ${exampleWithUnit(total / 7, volumes)} per day over 7 days; ` +
      `projected ${exampleWithUnit(projected, volumes)} for the month ending ${EXAMPLE_PROJECTION.projection_date}.`,
  };
}

const DAILY = sevenDays(id, name, LAST_7_DAYS, EXAMPLE_PROJECTION.projected_value);

/** The days of the collector's outage of the 7-day example (from the 15th at 22:00 to the 17th at 07:00). */
const OUTAGE = ['2026-11-15', '2026-11-16', '2026-11-17'];

/** September to November 2026 of device 1042: 1.1 to 1.5 m³ a day, 0.512 m³ so far today. */
function threeMonths(volumes = EXAMPLE_VOLUMES): ThreeMonthHistory {
  const today = daysOf('CURRENT_MONTH').at(-1)!.date;
  const consumed = (date: string) => (date === today ? 0.512 : 1.1 + ((Number(date.slice(8)) * 37) % 41) / 100);
  const rows = lastThreeMonths(EXAMPLE_NOW, zone).map((month) => {
    const total = month.days.reduce((sum, day) => sum + consumed(day.date), 0);
    return {
      date: month.firstDate,
      ...exampleDay(total, 0, volumes),
      by_days: month.days.map((day) => ({
        date: day.date,
        ...exampleDay(consumed(day.date), 0, volumes),
        quality: OUTAGE.includes(day.date) ? ('ESTIMATED' as const) : ('ACTUAL' as const),
      })),
    };
  });
  return { device_id: id, time_zone: zone, series: [{ ...SERIES_HEAD, unit: volumes.unit, rows }] };
}

const GALLONS = volumeFormat(unit, 'gal');

export const ApiDailyHistory = () =>
  Documented({
    summary: 'Daily consumption series of a device',
    description:
      "Consumption per local day of the period, one series per channel, with the month's projection and a summary. " +
      'A day no reading covers counts `"0"` with a `NO_DATA` alert and quality `MISSING`; a day partly spread over an interval ' +
      'between readings longer than 24 hours is `ESTIMATED`; a day the register went down carries `REGISTER_RESET`. ' +
      "With `X-Unit` every volume is written in that unit (the device's decimal places).",
    request: { query: dailyHistoryQuery, headers: consumptionHeaders },
    responses: {
      200: jsonResponse(
        'The daily series.',
        dailyHistorySchema,
        {
          last_7_days: { summary: '?device_id=1042&period=7D', value: DAILY },
          new_meter: {
            summary: '?device_id=1057&period=7D: a meter installed on the 19th',
            value: sevenDays(1057, 'Riverside Tower – garden', NEW_METER_7_DAYS, ((0.645 + 1.102) / 20) * 30),
          },
          in_gallons: {
            summary: '?device_id=1042&period=7D with X-Unit: gal',
            value: sevenDays(id, name, LAST_7_DAYS, EXAMPLE_PROJECTION.projected_value, GALLONS),
          },
        },
        RATE_LIMIT_STATE,
      ),
      400: invalidRequest({
        device_id: INVALID_DEVICE_ID,
        period: { summary: '?period=3D', problem: periodProblem('3D') },
        future_month: { summary: '?period=2027-01', problem: periodProblem('2027-01') },
        time_zone: INVALID_TIME_ZONE,
        unit: INVALID_UNIT,
      }),
      404: UNKNOWN_DEVICE,
    },
  });

export const ApiThreeMonthHistory = () =>
  Documented({
    summary: 'Three-month consumption of a device',
    description: 'Monthly totals of the current month and the two before it, oldest first, with their days (each with its `quality`), one series per channel.',
    request: { query: deviceIdQuery, headers: consumptionHeaders },
    responses: {
      200: jsonResponse(
        'The three months.',
        threeMonthHistorySchema,
        {
          three_months: { summary: '?device_id=1042 on 21 November', value: threeMonths() },
          in_cubic_feet: { summary: '?device_id=1042 with X-Unit: ft3', value: threeMonths(volumeFormat(unit, 'ft³')) },
        },
        RATE_LIMIT_STATE,
      ),
      400: invalidRequest({ device_id: INVALID_DEVICE_ID, time_zone: INVALID_TIME_ZONE, unit: INVALID_UNIT }),
      404: UNKNOWN_DEVICE,
    },
  });
