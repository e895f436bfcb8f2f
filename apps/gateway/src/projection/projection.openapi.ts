import { monthCost, roundDecimal, volumeFormat, type Tariff } from '@meter/consumption';
import { checkQuery, Documented, jsonResponse, problemThrownBy } from '@meter/http';
import { EXAMPLE_DEVICE, EXAMPLE_PROJECTION } from '../api/examples';
import { parseDeviceId } from '@meter/device-reports';
import { deviceIdQuery, INVALID_DEVICE_ID, INVALID_TIME_ZONE, invalidRequest, RATE_LIMIT_STATE, UNKNOWN_DEVICE } from '../request/request-params.openapi';
import { consumptionHeaders, INVALID_UNIT } from '../units/x-unit.openapi';
import { MAX_BULK_DEVICES } from './bulk-limit';
import { bulkProjectionQuery, bulkProjectionsSchema, deviceIdPath, projectionSchema, type Projection } from './projection.schemas';

const { unit, currencySymbol } = EXAMPLE_DEVICE;
const { projected_cost: _cost, ...WITHOUT_COST } = EXAMPLE_PROJECTION;

const PROJECTION_OF_1042: Projection = { device_id: '1042', ...EXAMPLE_PROJECTION, unit, currency_symbol: currencySymbol };

/** A tariff for device 1042: 0.25 a day, the first 15 m³ of a month at 1.20, the next 15 at 1.85, the rest at 2.90. */
const TARIFF: Tariff = {
  currency_symbol: '€',
  standing_charge_per_day: 0.25,
  blocks: [
    { up_to: 15, price_per_unit: 1.2 },
    { up_to: 30, price_per_unit: 1.85 },
    { up_to: null, price_per_unit: 2.9 },
  ],
};

/** Device 1042 under that tariff, asked in US gallons: the volumes convert, the cost is the same money. */
function underTariffInGallons(): Projection {
  const gallons = volumeFormat(unit, 'gal');
  const { projected_value, average_daily_consumption, total_days_in_month } = EXAMPLE_PROJECTION;
  return {
    ...PROJECTION_OF_1042,
    projected_value: gallons.round(projected_value, EXAMPLE_DEVICE.decimalPlaces),
    projected_cost: roundDecimal(monthCost(TARIFF, projected_value, total_days_in_month), 2),
    unit: gallons.unit,
    currency_symbol: TARIFF.currency_symbol,
    average_daily_consumption: gallons.round(average_daily_consumption, EXAMPLE_DEVICE.decimalPlaces),
  };
}

const SINGLE = {
  summary: "Projection of a device's current month",
  description:
    'The average daily consumption of the completed local days of the month (on the 1st, of the last 7 days), ' +
    "projected over the whole month, all channels together, with its cost: under the device's tariff, its standing charge for each day of the month " +
    'plus the projected volume priced through its monthly blocks (in the order of the blocks, each up to its `up_to`); without a tariff, at its price per unit. ' +
    'With `X-Unit` the volumes are written in that unit; the cost stays the same.',
};

const projectionAnswer = (summary: string) =>
  jsonResponse(
    'The projection.',
    projectionSchema,
    {
      device_1042: { summary, value: PROJECTION_OF_1042 },
      tariff_in_gallons: {
        summary: `${summary}, with X-Unit: gal, under a tariff of 0.25 €/day and blocks 0-15 m³ at 1.20, 15-30 at 1.85, above at 2.90`,
        value: underTariffInGallons(),
      },
    },
    RATE_LIMIT_STATE,
  );

export const ApiProjectionByQuery = () =>
  Documented({
    ...SINGLE,
    request: { query: deviceIdQuery, headers: consumptionHeaders },
    responses: {
      200: projectionAnswer('?device_id=1042 on 21 November 2026'),
      400: invalidRequest({ device_id: INVALID_DEVICE_ID, time_zone: INVALID_TIME_ZONE, unit: INVALID_UNIT }),
      404: UNKNOWN_DEVICE,
    },
  });

export const ApiProjectionByPath = () =>
  Documented({
    ...SINGLE,
    summary: `${SINGLE.summary} (id in the path)`,
    request: { params: deviceIdPath, headers: consumptionHeaders },
    responses: {
      200: projectionAnswer('/meter/v1/projection/1042 on 21 November 2026'),
      400: invalidRequest({
        deviceId: { summary: '/meter/v1/projection/0', problem: problemThrownBy(() => parseDeviceId('0', 'deviceId')) },
        time_zone: INVALID_TIME_ZONE,
        unit: INVALID_UNIT,
      }),
      404: UNKNOWN_DEVICE,
    },
  });

export const ApiBulkProjection = () =>
  Documented({
    summary: `Projections of up to ${MAX_BULK_DEVICES} devices`,
    description: `The current-month projections of 1..${MAX_BULK_DEVICES} devices, without cost; ids the organization has no device of are listed in \`errors\`, not failed.`,
    request: { query: bulkProjectionQuery, headers: consumptionHeaders },
    responses: {
      200: jsonResponse(
        'The projections and the ids not found.',
        bulkProjectionsSchema,
        {
          found_and_unknown: {
            summary: '?device_ids=1042,1057,1043',
            value: {
              projections: [
                { device_id: '1042', ...WITHOUT_COST, unit },
                { device_id: '1057', ...WITHOUT_COST, projected_value: 112.86, average_daily_consumption: 3.762, unit },
              ],
              errors: [{ device_id: '1043', code: 'NOT_FOUND', message: 'device 1043 not found' }],
            },
          },
        },
        RATE_LIMIT_STATE,
      ),
      400: invalidRequest({
        device_ids: { summary: '?device_ids=1042,x', problem: problemThrownBy(() => checkQuery(bulkProjectionQuery, { device_ids: '1042,x' })) },
        too_many: {
          summary: `${MAX_BULK_DEVICES + 1} ids`,
          problem: problemThrownBy(() =>
            checkQuery(bulkProjectionQuery, { device_ids: Array.from({ length: MAX_BULK_DEVICES + 1 }, (_, i) => 1000 + i).join(',') }),
          ),
        },
        time_zone: INVALID_TIME_ZONE,
        unit: INVALID_UNIT,
      }),
    },
  });
