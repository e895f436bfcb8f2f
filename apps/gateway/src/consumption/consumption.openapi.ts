import {
  consumptionPoints,
  intervalsFromReadings,
  resolveConsumptionWindow,
  rfc3339InZone,
  volumeFormat,
  type ConsumptionInterval,
  type Unit,
} from '@meter/consumption';
import { Documented, jsonResponse, validationFailed } from '@meter/http';
import { EXAMPLE_DEVICE } from '../api/examples';
import { INVALID_DEVICE_ID, INVALID_TIME_ZONE, invalidRequest, RATE_LIMIT_STATE, UNKNOWN_DEVICE } from '../request/request-params.openapi';
import { consumptionHeaders, INVALID_UNIT } from '../units/x-unit.openapi';
import { consumptionQuery, consumptionSchema, type IntervalConsumption } from './consumption.schemas';

const { id, zone, unit, decimalPlaces } = EXAMPLE_DEVICE;

/** Readings of device 1042 every 20 minutes through October and November 2026: more by day than by night. */
const READINGS = (() => {
  const readings = [];
  let value = 1824.113;
  for (let t = Date.UTC(2026, 9, 1); t <= Date.UTC(2026, 10, 21, 9); t += 20 * 60_000) {
    readings.push({ readAt: t, value });
    const hour = new Date(t).getUTCHours();
    value += hour >= 5 && hour <= 21 ? 0.023 + (hour % 5) * 0.004 : 0.002;
  }
  return intervalsFromReadings(readings);
})();

/** The answer the route gives for these readings, computed by the same library. */
function example(interval: ConsumptionInterval, from: string, to: string, requested?: Unit): IntervalConsumption {
  const resolved = resolveConsumptionWindow(interval, from, to, zone);
  if (!resolved.ok) throw new Error(resolved.message);
  const volumes = volumeFormat(unit, requested);
  return {
    device_id: id,
    channel: 1,
    time_zone: zone,
    unit: volumes.unit,
    interval,
    from: rfc3339InZone(resolved.window.from, zone),
    to: rfc3339InZone(resolved.window.to, zone),
    points: consumptionPoints(READINGS, resolved.window, volumes.decimal, decimalPlaces).map((p) => ({
      start: rfc3339InZone(p.start, zone),
      end: rfc3339InZone(p.end, zone),
      value: p.value,
      quality: p.quality,
    })),
  };
}

function windowProblem(interval: string, from: string, to: string) {
  const resolved = resolveConsumptionWindow(interval, from, to, zone);
  if (resolved.ok) throw new Error(`${interval} ${from} ${to} is valid`);
  return validationFailed([{ field: resolved.field, message: resolved.message }]);
}

export const ApiIntervalConsumption = () =>
  Documented({
    summary: 'Consumption of a device per 15 minutes, hour, day or month',
    description:
      'Consumption of one channel over `from` (included) to `to` (excluded) in points of `interval`, in the zone in effect (`X-Timezone`, ' +
      "else the device's) and the unit in effect (`X-Unit`, else the device's). Points tile each local day from its midnight: a DST day has 23 or " +
      "25 hourly points, and the points of a day add up, to the digit, to that day's value in GET /meter/v1/history (the same arithmetic: " +
      'consumption spread linearly between readings, each point rounded so that its day sums exactly). A P1M point is the sum of its days.',
    request: { query: consumptionQuery, headers: consumptionHeaders },
    responses: {
      200: jsonResponse(
        'The points, oldest first.',
        consumptionSchema,
        {
          hourly: {
            summary: '?device_id=1042&from=2026-11-20T06:00&to=2026-11-20T12:00&interval=PT1H',
            value: example('PT1H', '2026-11-20T06:00', '2026-11-20T12:00'),
          },
          dst_night: {
            summary: '?device_id=1042&from=2026-10-25T01:00&to=2026-10-25T04:00&interval=PT1H: 02:00 twice, told apart by the offset',
            value: example('PT1H', '2026-10-25T01:00', '2026-10-25T04:00'),
          },
          quarter_hours_in_litres: {
            summary: '?device_id=1042&from=2026-11-20T07:00&to=2026-11-20T08:00&interval=PT15M with X-Unit: L',
            value: example('PT15M', '2026-11-20T07:00', '2026-11-20T08:00', 'L'),
          },
          daily: { summary: '?device_id=1042&from=2026-11-17&to=2026-11-20&interval=P1D', value: example('P1D', '2026-11-17', '2026-11-20') },
          monthly: { summary: '?device_id=1042&from=2026-10-01&to=2026-11-01&interval=P1M', value: example('P1M', '2026-10-01', '2026-11-01') },
        },
        RATE_LIMIT_STATE,
      ),
      400: invalidRequest({
        device_id: INVALID_DEVICE_ID,
        interval: { summary: '?interval=PT30M', problem: windowProblem('PT30M', '2026-11-20', '2026-11-21') },
        from: { summary: '?from=2026-11-20T06:30&interval=PT1H', problem: windowProblem('PT1H', '2026-11-20T06:30', '2026-11-21') },
        too_many_points: { summary: '?from=2026-01-01&to=2026-11-01&interval=PT15M', problem: windowProblem('PT15M', '2026-01-01', '2026-11-01') },
        time_zone: INVALID_TIME_ZONE,
        unit: INVALID_UNIT,
      }),
      404: UNKNOWN_DEVICE,
    },
  });
