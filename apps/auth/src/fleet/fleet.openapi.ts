import {
  consumptionHeaders,
  dailyHistorySchema,
  parseDeviceId,
  projectionSchema,
  requestedUnit,
  threeMonthHistorySchema,
  type DailyHistory,
  type Projection,
} from '@meter/device-reports';
import type { AlertEpisodeView } from '@meter/contracts';
import { parseBody } from '../common/parse-body';
import {
  checkQuery,
  Documented,
  jsonBody,
  jsonResponse,
  notFound,
  ProblemException,
  problemResponse,
  problemThrownBy,
  unavailableProblem,
  validationFailed,
} from '@meter/http';
import {
  deviceAlertsQuery,
  deviceListQuery,
  devicePath,
  fleetAlertListSchema,
  fleetAlertsParams,
  fleetAlertsQuery,
  fleetDeviceListSchema,
  historyQuery,
  fleetDeviceSchema,
  updateDeviceRequest,
  type FleetDeviceView,
} from './fleet.schemas';

const ALERT: AlertEpisodeView = {
  id: '5b0d3c8e-2f4a-4e61-9b7c-3d2e1f0a9b8c',
  device_id: 1042,
  channel: 1,
  code: 'LEAK',
  state: 'open',
  raised_at: '2026-11-20T03:00:00.000Z',
  cleared_at: null,
  message: 'Water ran through every hour of the last 24 hours',
};

const DEVICE: FleetDeviceView = {
  device_id: 1042,
  name: 'Kitchen',
  unit: 'm³',
  time_zone: 'Europe/Madrid',
  channels: 1,
  activated_at: '2026-08-01T00:00:00.000Z',
  external_ids: { dev_eui: null, wmbus_id: '12345678' },
  last_reading: { channel: 1, read_at: '2026-11-21T09:00:00.000Z', value: '1234.567' },
  open_alerts: [ALERT],
};

const HISTORY: DailyHistory = {
  device_id: 1042,
  period: '7D',
  time_zone: 'Europe/Madrid',
  chart_type: 'BAR',
  series: [
    {
      serie: 'water',
      label: 'Kitchen',
      unit: 'm³',
      decimal_places: 3,
      data_type: 'consumption',
      description: 'Consumption per local day (Europe/Madrid) in m³, spread linearly between readings',
      data_points: [
        { date: '2026-11-20 00:00:00.000', value: '0.412', value_fmt: '0.412 m³', alerts: [], quality: 'ACTUAL' },
        { date: '2026-11-21 00:00:00.000', value: '0.198', value_fmt: '0.198 m³', alerts: [], quality: 'ACTUAL' },
      ],
      projection: { date: '2026-11-30', value: 11.85 },
    },
  ],
  summary: 'Average 0.305 m³ per day over 2 days; projected 11.850 m³ for the month ending 2026-11-30.',
};

const PROJECTION: Projection = {
  device_id: '1042',
  projected_value: 11.85,
  projected_cost: 23.7,
  unit: 'm³',
  currency_symbol: '€',
  days_used_for_calculation: 20,
  total_days_in_month: 30,
  average_daily_consumption: 0.395,
  calculation_date: '2026-11-21',
  projection_date: '2026-11-30',
};

const UNKNOWN_DEVICE = problemResponse("`not_found`: the organization has no device with this id (another organization's devices are unknown here).", {
  not_found: { summary: 'A device of no meter of the organization', problem: notFound('device 1043 not found') },
});

const BAD_TOKEN = {
  summary: 'A token this list did not issue',
  problem: validationFailed([{ field: 'next_page_token', message: 'is not a token of this list' }]),
};

const invalid = (examples: Record<string, { summary: string; problem: ReturnType<typeof validationFailed> }>) =>
  problemResponse('`validation_failed`: a parameter or header is invalid; `errors` names it.', examples);

const BAD_ID = { summary: '/devices/meter-1042/…', problem: problemThrownBy(() => parseDeviceId('meter-1042', 'id')) };
const BAD_UNIT = { summary: 'X-Unit: kWh', problem: problemThrownBy(() => requestedUnit('kWh')) };

export const ApiDeviceList = () =>
  Documented({
    summary: 'The fleet',
    description:
      "The organization's devices by id, with each one's newest reading and open alerts, a page at a time (keyset paging: " +
      'a page costs the same in a fleet of 10,000). `q` finds devices by name or id.',
    request: { query: deviceListQuery },
    responses: {
      200: jsonResponse('A page of devices.', fleetDeviceListSchema, {
        page: { summary: 'One device, more to come', value: { devices: [DEVICE], has_more: true, next_page_token: 'eyJkIjoxMDQyfQ' } },
      }),
      400: invalid({
        limit: { summary: '?limit=0', problem: validationFailed([{ field: 'limit', message: 'must be an integer from 1 to 200' }]) },
        next_page_token: BAD_TOKEN,
      }),
    },
  });

export const ApiDeviceHistory = () =>
  Documented({
    summary: "A device's daily history",
    description:
      "The same answer as the gateway's `GET /meter/v1/history` for the same device, period, `X-Timezone` and `X-Unit`, to the digit " +
      '(one implementation, @meter/device-reports).',
    request: { params: devicePath, query: historyQuery, headers: consumptionHeaders },
    responses: {
      200: jsonResponse('One series per channel.', dailyHistorySchema, { week: { summary: 'The last days', value: HISTORY } }),
      400: invalid({
        id: BAD_ID,
        period: { summary: '?period=2030-01', problem: validationFailed([{ field: 'period', message: 'must not be a future month' }]) },
        unit: BAD_UNIT,
      }),
      404: UNKNOWN_DEVICE,
    },
  });

export const ApiDeviceThreeMonths = () =>
  Documented({
    summary: "A device's three months",
    description: "The gateway's `GET /meter/v1/history/3m` for this device: the current month and the two before it, each with its days.",
    request: { params: devicePath, headers: consumptionHeaders },
    responses: {
      200: jsonResponse('One series per channel.', threeMonthHistorySchema, {
        months: {
          summary: 'Three months',
          value: {
            device_id: 1042,
            time_zone: 'Europe/Madrid',
            series: [
              {
                serie: 'water',
                label: 'Kitchen',
                unit: 'm³',
                decimal_places: 3,
                rows: ['2026-09-01', '2026-10-01', '2026-11-01'].map((date) => ({
                  date,
                  value: '0.412',
                  value_fmt: '0.412 m³',
                  alerts: [],
                  by_days: [{ date, value: '0.412', value_fmt: '0.412 m³', alerts: [], quality: 'ACTUAL' as const }],
                })),
              },
            ],
          },
        },
      }),
      400: invalid({ id: BAD_ID, unit: BAD_UNIT }),
      404: UNKNOWN_DEVICE,
    },
  });

export const ApiDeviceProjection = () =>
  Documented({
    summary: "A device's month projection and cost",
    description: "The gateway's `GET /meter/v1/projection/{deviceId}` for this device.",
    request: { params: devicePath, headers: consumptionHeaders },
    responses: {
      200: jsonResponse('The projection.', projectionSchema, { month: { summary: 'Mid-month', value: PROJECTION } }),
      400: invalid({ id: BAD_ID, unit: BAD_UNIT }),
      404: UNKNOWN_DEVICE,
    },
  });

export const ApiDeviceAlerts = () =>
  Documented({
    summary: "A device's alerts",
    description: 'Its alert episodes, newest first; `state` open (default), cleared or all.',
    request: { params: devicePath, query: deviceAlertsQuery },
    responses: {
      200: jsonResponse('A page of episodes.', fleetAlertListSchema, {
        open: { summary: 'One open leak', value: { alerts: [ALERT], has_more: false, next_page_token: null } },
      }),
      400: invalid({
        id: BAD_ID,
        state: { summary: '?state=closed', problem: validationFailed([{ field: 'state', message: 'must be open, cleared or all' }]) },
        next_page_token: BAD_TOKEN,
      }),
      404: UNKNOWN_DEVICE,
    },
  });

export const ApiFleetAlerts = () =>
  Documented({
    summary: "The fleet's alerts",
    description: "Alert episodes of the organization's devices, newest first: open by default, cleared or all on request, by code or device.",
    request: { query: fleetAlertsQuery },
    responses: {
      200: jsonResponse('A page of episodes.', fleetAlertListSchema, {
        open: { summary: 'One open leak', value: { alerts: [ALERT], has_more: false, next_page_token: null } },
      }),
      400: invalid({
        code: { summary: '?code=FLOOD', problem: problemThrownBy(() => checkQuery(fleetAlertsParams, { code: 'FLOOD' })) },
        next_page_token: BAD_TOKEN,
      }),
    },
  });

export const ApiGetDevice = () =>
  Documented({
    summary: 'A device',
    description: 'One device as the fleet list shows it: its settings, radio ids, newest reading and open alerts.',
    request: { params: devicePath },
    responses: {
      200: jsonResponse('The device.', fleetDeviceSchema, { device: { summary: 'A kitchen meter', value: DEVICE } }),
      400: invalid({ id: BAD_ID }),
      404: UNKNOWN_DEVICE,
    },
  });

export const ApiUpdateDevice = () =>
  Documented({
    summary: "Set a device's radio ids",
    description:
      'Sets or removes the radio ids collectors match uplinks by (docs/collectors.md, "Registering radio ids"): `dev_eui` for ChirpStack and ' +
      'The Things Stack, `wmbus_id` for wmbusmeters. Each is unique in the organization: an id another device carries is 409 ' +
      '`external_id_taken` (remove it there first). The change travels as a device message through the bus to ingest; the answer is 200 ' +
      'with the device once the read model shows it, or 202 with the device as it will be when ingest has not applied it within 5 seconds.',
    request: {
      params: devicePath,
      body: jsonBody('The radio ids to change.', updateDeviceRequest, {
        lorawan: { summary: 'A LoRaWAN meter', value: { external_ids: { dev_eui: '0004A30B001C0530' } } },
        wmbus: { summary: 'A wM-Bus meter, no DevEUI', value: { external_ids: { wmbus_id: '76348799', dev_eui: null } } },
      }),
    },
    responses: {
      200: jsonResponse('The device with its radio ids.', fleetDeviceSchema, {
        set: { summary: 'Its wM-Bus id set', value: DEVICE },
      }),
      202: jsonResponse('Stored on the bus, not yet in the read model: the device as it will be.', fleetDeviceSchema, {
        pending: { summary: 'Ingest applies it shortly', value: DEVICE },
      }),
      400: invalid({
        id: BAD_ID,
        dev_eui: {
          summary: 'A DevEUI of 14 digits',
          problem: problemThrownBy(() => parseBody(updateDeviceRequest, { external_ids: { dev_eui: '0004A30B001C05' } })),
        },
        wmbus_id: {
          summary: 'A wM-Bus id with a letter',
          problem: problemThrownBy(() => parseBody(updateDeviceRequest, { external_ids: { wmbus_id: '7634879A' } })),
        },
        nothing: { summary: 'No external_ids', problem: problemThrownBy(() => parseBody(updateDeviceRequest, {})) },
      }),
      404: UNKNOWN_DEVICE,
      409: problemResponse('`external_id_taken`: another device of the organization carries the id; `errors` names the field.', {
        external_id_taken: {
          summary: 'The DevEUI of device 1043',
          problem: new ProblemException(409, 'external_id_taken', 'external_ids.dev_eui: 0004a30b001c0530 is the radio id of device 1043', {
            errors: [{ field: 'external_ids.dev_eui', message: '0004a30b001c0530 is the radio id of device 1043' }],
          }),
        },
      }),
      503: problemResponse('`bus_unavailable`: the bus did not store the change; nothing changed. Retry after `Retry-After`.', {
        bus_unavailable: {
          summary: 'NATS is down',
          problem: unavailableProblem({
            code: 'bus_unavailable',
            detail: 'the message bus did not store the change; nothing was changed',
            retryAfterSeconds: 2,
          }),
        },
      }),
    },
  });
