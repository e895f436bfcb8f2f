import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, type SchemaObject } from '@nestjs/swagger';
import {
  ApiDeviceIdQuery,
  ApiTimeZoneHeader,
  ApiUnknownDevice,
  DEVICE_ID_SCHEMA,
  LOCAL_DATE_SCHEMA,
  RATE_LIMIT_STATE,
} from '../read-model/request-params.openapi';
import { MAX_BULK_DEVICES } from './bulk-limit';

const DEVICE_ID_STRING: SchemaObject = { type: 'string', pattern: '^[1-9][0-9]*$', examples: ['42'] };

const COMMON = {
  device_id: DEVICE_ID_STRING,
  projected_value: { type: 'number', description: '`average_daily_consumption` x `total_days_in_month`, all channels together.' },
  unit: { type: 'string', examples: ['m3'] },
  days_used_for_calculation: { type: 'integer', minimum: 0, description: 'Completed local days of the month; on the 1st, the last 7 days.' },
  total_days_in_month: { type: 'integer', minimum: 28, maximum: 31 },
  average_daily_consumption: { type: 'number' },
  calculation_date: { ...LOCAL_DATE_SCHEMA, description: 'Today in the zone in effect.' },
  projection_date: { ...LOCAL_DATE_SCHEMA, description: 'The last day of the month.' },
} satisfies Record<string, SchemaObject>;

const BULK_FIELDS = Object.keys(COMMON);

/** Spec 2.6 single-device form. */
const SINGLE: SchemaObject = {
  type: 'object',
  required: [...BULK_FIELDS, 'projected_cost', 'currency_symbol'],
  properties: {
    ...COMMON,
    projected_cost: { type: 'number', description: "Projected value x the device's price per unit, 2 decimals." },
    currency_symbol: { type: 'string', examples: ['€'] },
  },
};

const BULK: SchemaObject = {
  type: 'object',
  required: ['projections', 'errors'],
  properties: {
    projections: {
      type: 'array',
      description: 'The devices found, in the order asked (without cost and currency).',
      items: { type: 'object', required: BULK_FIELDS, properties: COMMON },
    },
    errors: {
      type: 'array',
      description: 'One per unknown id; empty when every device was found.',
      items: {
        type: 'object',
        required: ['device_id', 'code', 'message'],
        properties: { device_id: DEVICE_ID_STRING, code: { type: 'string', enum: ['NOT_FOUND'] }, message: { type: 'string' } },
      },
    },
  },
};

const SINGLE_OPERATION = {
  summary: "Projection of a device's current month",
  description: 'Average daily consumption of the completed local days, projected over the whole month, with its cost.',
};

export const ApiProjectionByQuery = () =>
  applyDecorators(
    ApiOperation(SINGLE_OPERATION),
    ApiDeviceIdQuery(),
    ApiTimeZoneHeader(),
    ApiOkResponse({ headers: RATE_LIMIT_STATE, description: 'The projection.', schema: SINGLE }),
    ApiUnknownDevice(),
  );

export const ApiProjectionByPath = () =>
  applyDecorators(
    ApiOperation({ ...SINGLE_OPERATION, summary: `${SINGLE_OPERATION.summary} (id in the path)` }),
    ApiParam({ name: 'deviceId', required: true, description: 'The device.', schema: DEVICE_ID_SCHEMA }),
    ApiTimeZoneHeader(),
    ApiOkResponse({ headers: RATE_LIMIT_STATE, description: 'The projection.', schema: SINGLE }),
    ApiUnknownDevice(),
  );

export const ApiBulkProjection = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Projections of up to 100 devices',
      description: `The current-month projection of 1..${MAX_BULK_DEVICES} devices; unknown ids are listed in errors, not failed.`,
    }),
    ApiQuery({
      name: 'device_ids',
      required: true,
      description: `Comma-separated device ids, 1..${MAX_BULK_DEVICES} of them (e.g. \`12,13,40\`).`,
      schema: { type: 'string', pattern: '^\\s*[1-9][0-9]*\\s*(,\\s*[1-9][0-9]*\\s*){0,99}$', examples: ['12,13,40'] },
    }),
    ApiTimeZoneHeader(),
    ApiOkResponse({ headers: RATE_LIMIT_STATE, description: 'The projections and the ids not found.', schema: BULK }),
  );
