import { ApiHeader, ApiNotFoundResponse, ApiQuery, type HeadersObject, type SchemaObject } from '@nestjs/swagger';
import { problemResponse } from '@meter/http';

/** `X-Timezone` (contract 5) on every route that works in local days. */
export const ApiTimeZoneHeader = () =>
  ApiHeader({
    name: 'X-Timezone',
    required: false,
    description: "IANA time zone name the local days are counted in; absent -> the device's own time_zone; not an IANA name -> 400.",
    schema: { type: 'string', minLength: 1, examples: ['Europe/Madrid', 'Asia/Kolkata'] },
  });

/** Device ids are positive integers a JS number holds exactly (request-params.ts). */
export const DEVICE_ID_SCHEMA: SchemaObject = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };

export const ApiDeviceIdQuery = () =>
  ApiQuery({ name: 'device_id', required: true, description: 'The device (an id of GET /meter/v1/devices).', schema: DEVICE_ID_SCHEMA });

export const ApiUnknownDevice = () => ApiNotFoundResponse(problemResponse('`not_found`: no device with this id in the organization.'));

/** Contract 6: alerts are `{code, message}`. */
export const ALERT_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['code', 'message'],
  properties: {
    code: {
      type: 'string',
      enum: ['NO_DATA', 'REGISTER_RESET'],
      description: 'NO_DATA: readings do not cover the day (it counts 0); REGISTER_RESET: the register went down.',
    },
    message: { type: 'string' },
  },
};

export const ALERTS_SCHEMA: SchemaObject = { type: 'array', items: ALERT_SCHEMA };

/** Local dates are `YYYY-MM-DD`. */
export const LOCAL_DATE_SCHEMA: SchemaObject = { type: 'string', format: 'date', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' };

/** A decimal rendered as a string with the device's decimal places, e.g. `"12.345"`. */
export const DECIMAL_STRING_SCHEMA: SchemaObject = { type: 'string', pattern: '^-?[0-9]+(\\.[0-9]+)?$', examples: ['12.345'] };

/** Contract 7: every answer of an authenticated request tells the credential's budget (draft-ietf-httpapi-ratelimit-headers). */
export const RATE_LIMIT_STATE: HeadersObject = {
  'RateLimit-Policy': { required: true, description: 'The per-credential policy, e.g. `"default";q=60;w=60`.', schema: { type: 'string' } },
  RateLimit: { required: true, description: 'What is left of it, e.g. `"default";r=59;t=60`.', schema: { type: 'string' } },
};
