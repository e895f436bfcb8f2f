import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, type SchemaObject } from '@nestjs/swagger';
import {
  ALERTS_SCHEMA,
  ApiDeviceIdQuery,
  ApiTimeZoneHeader,
  ApiUnknownDevice,
  DECIMAL_STRING_SCHEMA,
  DEVICE_ID_SCHEMA,
  LOCAL_DATE_SCHEMA,
  RATE_LIMIT_STATE,
} from '../read-model/request-params.openapi';

const SERIES_HEAD = {
  serie: { type: 'string', examples: ['water'] },
  label: { type: 'string', description: 'Names the device and, with several channels, the channel.' },
  unit: { type: 'string', examples: ['m3'] },
  decimal_places: { type: 'integer', minimum: 0 },
} satisfies Record<string, SchemaObject>;

const VALUE = {
  value: DECIMAL_STRING_SCHEMA,
  value_fmt: { type: 'string', description: 'The value with its unit.', examples: ['12.345 m3'] },
} satisfies Record<string, SchemaObject>;

/** Spec 2.4 with contract 6. */
const HISTORY: SchemaObject = {
  type: 'object',
  required: ['device_id', 'period', 'time_zone', 'chart_type', 'series', 'summary'],
  properties: {
    device_id: DEVICE_ID_SCHEMA,
    period: { type: 'string', description: 'The requested period.' },
    time_zone: { type: 'string', description: 'The IANA zone in effect.', examples: ['Europe/Madrid'] },
    chart_type: { type: 'string', enum: ['BAR', 'LINE'], description: 'LINE for CURRENT_MONTH, BAR otherwise.' },
    series: {
      type: 'array',
      description: 'One series per channel.',
      items: {
        type: 'object',
        required: ['serie', 'label', 'unit', 'decimal_places', 'data_type', 'description', 'data_points', 'projection'],
        properties: {
          ...SERIES_HEAD,
          data_type: { type: 'string', enum: ['consumption'] },
          description: { type: 'string' },
          data_points: {
            type: 'array',
            description: 'One point per local day of the period, oldest first. A day no reading covers has value `"0"` and a `NO_DATA` alert.',
            items: {
              type: 'object',
              required: ['date', 'value', 'value_fmt', 'alerts'],
              properties: {
                date: {
                  type: 'string',
                  pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2} 00:00:00\\.000$',
                  description: 'Local midnight, `YYYY-MM-DD 00:00:00.000`.',
                },
                ...VALUE,
                alerts: ALERTS_SCHEMA,
              },
            },
          },
          projection: {
            type: 'object',
            required: ['date', 'value'],
            description: "The channel's projection of the current month (as GET /meter/v1/projection).",
            properties: { date: LOCAL_DATE_SCHEMA, value: { type: 'number' } },
          },
        },
      },
    },
    summary: { type: 'string', description: 'Average per day over the period and the month projection, in words.' },
  },
};

/** Spec 2.5. */
const THREE_MONTHS: SchemaObject = {
  type: 'object',
  required: ['device_id', 'time_zone', 'series'],
  properties: {
    device_id: DEVICE_ID_SCHEMA,
    time_zone: { type: 'string', description: 'The IANA zone in effect.', examples: ['Europe/Madrid'] },
    series: {
      type: 'array',
      description: 'One series per channel.',
      items: {
        type: 'object',
        required: ['serie', 'label', 'unit', 'decimal_places', 'rows'],
        properties: {
          ...SERIES_HEAD,
          rows: {
            type: 'array',
            description: 'The current month and the two before it, oldest first.',
            minItems: 3,
            maxItems: 3,
            items: {
              type: 'object',
              required: ['date', 'value', 'value_fmt', 'alerts', 'by_days'],
              properties: {
                date: { ...LOCAL_DATE_SCHEMA, description: 'First day of the month.' },
                ...VALUE,
                alerts: ALERTS_SCHEMA,
                by_days: {
                  type: 'array',
                  description: 'Each local day of the month (up to today for the current one).',
                  items: {
                    type: 'object',
                    required: ['date', 'value', 'value_fmt', 'alerts'],
                    properties: { date: LOCAL_DATE_SCHEMA, ...VALUE, alerts: ALERTS_SCHEMA },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};

export const ApiDailyHistory = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Daily consumption series of a device',
      description: "Consumption per local day of the period, one series per channel, with the month's projection and a summary.",
    }),
    ApiDeviceIdQuery(),
    ApiQuery({
      name: 'period',
      required: true,
      description:
        '`7D` or `15D` (the last days ending today), `CURRENT_MONTH` (day 1 to today) or a month `YYYY-MM` (the whole month, the current one too; not a future one).',
      schema: {
        anyOf: [
          { type: 'string', enum: ['7D', '15D', 'CURRENT_MONTH'] },
          { type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', examples: ['2026-10'] },
        ],
      },
    }),
    ApiTimeZoneHeader(),
    ApiOkResponse({ headers: RATE_LIMIT_STATE, description: 'The daily series.', schema: HISTORY }),
    ApiUnknownDevice(),
  );

export const ApiThreeMonthHistory = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Three-month consumption of a device',
      description: 'Monthly totals of the current month and the two before it, with their days, one series per channel.',
    }),
    ApiDeviceIdQuery(),
    ApiTimeZoneHeader(),
    ApiOkResponse({ headers: RATE_LIMIT_STATE, description: 'The three months.', schema: THREE_MONTHS }),
    ApiUnknownDevice(),
  );
