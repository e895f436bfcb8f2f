import { displayValue, volumeFormat } from '@meter/consumption';
import { Documented, jsonBody, jsonResponse, problemThrownBy, validationFailed } from '@meter/http';
import { INVALID_TIME_ZONE, invalidRequest, RATE_LIMIT_STATE } from '../request/request-params.openapi';
import { consumptionHeaders, INVALID_UNIT } from '../units/x-unit.openapi';
import { dashboardRequest, MAX_DASHBOARD_DEVICES, parseDashboardRequest } from './dashboard-request';
import { dashboardSchema, type Panel } from './dashboard.schemas';

/** Device 1042 (one channel, Europe/Madrid) on 2026-11-21 at 10:17 local time. */
const PANELS_OF_1042: Panel[] = [
  {
    type: 'CURRENT_CONSUMPTION',
    title: 'Current consumption',
    value: 26.954,
    display_value: '27.0',
    unit: 'm³',
    subtitle: 'Since 2026-11-01',
    serie: 'water',
    channel: 1,
    alerts: [],
  },
  {
    type: 'DAILY_ESTIMATE',
    title: 'Daily estimate',
    value: 1.284,
    display_value: '1.3',
    unit: 'm³',
    subtitle: 'Average of 20 completed days',
    serie: 'water',
    channel: 1,
    alerts: [],
  },
  {
    type: 'LAST_READING',
    title: 'Last reading',
    value: 4812.337,
    display_value: '4,812.3',
    unit: 'm³',
    subtitle: '2026-11-21 10:00 (Europe/Madrid)',
    serie: 'water',
    channel: 1,
    alerts: [],
  },
  {
    type: 'MONTHLY_PROJECTION',
    title: 'Monthly projection',
    value: 38.52,
    display_value: '38.5',
    unit: 'm³',
    subtitle: 'Projected to 2026-11-30',
    serie: 'water',
    channel: 1,
    alerts: [],
  },
];

/** The same panels with X-Unit: L (device 1042 has 3 decimal places). */
const IN_LITRES: Panel[] = PANELS_OF_1042.map((panel) => {
  const value = volumeFormat(panel.unit, 'L').round(panel.value, 3);
  return { ...panel, value, display_value: displayValue(value), unit: 'L' };
});

export const ApiDashboard = () =>
  Documented({
    summary: 'Dashboard panels of up to 100 devices',
    description:
      `Four panels per channel (current consumption, daily estimate, last reading, monthly projection) for 1..${MAX_DASHBOARD_DEVICES} devices. ` +
      'A device the organization does not have answers `status: NOT_FOUND` in its place, not an error. ' +
      "With `X-Unit` every device's panels are written in that unit.",
    request: {
      headers: consumptionHeaders,
      body: jsonBody('The devices to show, 1..100.', dashboardRequest, {
        two_devices: { summary: 'A device and an id the organization does not have', value: { devices: [{ device_id: 1042 }, { device_id: 1043 }] } },
      }),
    },
    responses: {
      200: jsonResponse(
        'The panels of each device, in the order asked.',
        dashboardSchema,
        {
          two_devices: {
            summary: 'Device 1042 found, 1043 not',
            value: {
              results: [
                { device_id: 1042, status: 'SUCCESS', panels: PANELS_OF_1042 },
                { device_id: 1043, status: 'NOT_FOUND', panels: [] },
              ],
            },
          },
          in_litres: {
            summary: 'Device 1042 with X-Unit: L',
            value: { results: [{ device_id: 1042, status: 'SUCCESS', panels: IN_LITRES }] },
          },
        },
        RATE_LIMIT_STATE,
      ),
      400: invalidRequest({
        no_devices: { summary: 'An empty list', problem: problemThrownBy(() => parseDashboardRequest({ devices: [] })) },
        device_id: {
          summary: 'A device id that is not a number',
          problem: problemThrownBy(() => parseDashboardRequest({ devices: [{ device_id: '1042' }] })),
        },
        not_json: { summary: 'A body that is not JSON', problem: validationFailed([{ field: 'body', message: 'is not valid JSON' }]) },
        time_zone: INVALID_TIME_ZONE,
        unit: INVALID_UNIT,
      }),
    },
  });
