import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, type SchemaObject } from '@nestjs/swagger';
import { openApiSchemaOf } from '@meter/http';
import { ALERTS_SCHEMA, ApiTimeZoneHeader, DEVICE_ID_SCHEMA, RATE_LIMIT_STATE } from '../read-model/request-params.openapi';
import { dashboardRequest, MAX_DASHBOARD_DEVICES } from './dashboard-request';

/** Spec 2.3 panel; contract 6 names what each type shows. */
const PANEL: SchemaObject = {
  type: 'object',
  required: ['type', 'title', 'value', 'display_value', 'unit', 'serie', 'channel', 'alerts'],
  properties: {
    type: { type: 'string', enum: ['CURRENT_CONSUMPTION', 'DAILY_ESTIMATE', 'LAST_READING', 'MONTHLY_PROJECTION'] },
    title: { type: 'string', examples: ['Current consumption'] },
    value: { type: 'number', description: "Rounded to the device's decimal places." },
    display_value: { type: 'string', description: 'Thousands separator and one decimal.', examples: ['1,234.5'] },
    unit: { type: 'string', examples: ['m3'] },
    subtitle: { type: 'string', description: 'Absent on LAST_READING when the channel has no reading yet.', examples: ['Since 2026-11-01'] },
    serie: { type: 'string', examples: ['water'] },
    channel: { type: 'integer', minimum: 1 },
    alerts: ALERTS_SCHEMA,
  },
};

const DASHBOARD: SchemaObject = {
  type: 'object',
  required: ['results'],
  properties: {
    results: {
      type: 'array',
      description: 'One result per requested device, in the order of the request.',
      items: {
        type: 'object',
        required: ['device_id', 'status', 'panels'],
        properties: {
          device_id: DEVICE_ID_SCHEMA,
          status: { type: 'string', enum: ['SUCCESS', 'NOT_FOUND'], description: 'NOT_FOUND: no such device in the organization (panels is then empty).' },
          panels: { type: 'array', description: 'Four panels per channel, channel by channel.', items: PANEL },
        },
      },
    },
  },
};

export const ApiDashboard = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Dashboard panels of up to 100 devices',
      description: `Four panels per channel (current consumption, daily estimate, last reading, monthly projection) for 1..${MAX_DASHBOARD_DEVICES} devices; an unknown device answers status NOT_FOUND, not an error.`,
    }),
    ApiTimeZoneHeader(),
    ApiBody({ required: true, description: 'The devices to show.', schema: openApiSchemaOf(dashboardRequest) }),
    ApiOkResponse({ headers: RATE_LIMIT_STATE, description: 'The panels of each device.', schema: DASHBOARD }),
  );
