import { z } from 'zod';
import type { HeadersObject } from 'openapi3-ts/oas31';
import { deviceIdParam, parseDeviceId, requestedZone } from '@meter/device-reports';
import { notFound, problemResponse, problemThrownBy, type ProblemExample } from '@meter/http';

export { alertSchema, decimalStringSchema, deviceIdSchema, localDateSchema, timeZoneHeader } from '@meter/device-reports';

/** The device most examples of the API document show. */
const EXAMPLE_DEVICE_ID = 1042;

/** `?device_id=` of the single-device routes: checkQuery reads it, the documents show it. */
export const deviceIdQuery = z.object({
  device_id: deviceIdParam.meta({ description: 'The device (an id of GET /meter/v1/devices).', param: { example: EXAMPLE_DEVICE_ID } }),
});

/** Every answer of an authenticated request tells the credential's budget (draft-ietf-httpapi-ratelimit-headers). */
export const RATE_LIMIT_STATE: HeadersObject = {
  'RateLimit-Policy': {
    required: true,
    description: 'The policy that counted the request: `default` (per credential) or `auth-failures` (per source address, for refused requests).',
    schema: { type: 'string' },
    example: '"default";q=60;w=60',
  },
  RateLimit: {
    required: true,
    description: 'What is left of it: `r` requests, the next of which frees up in `t` seconds.',
    schema: { type: 'string' },
    example: '"default";r=59;t=60',
  },
};

/** A 400 of a gateway route: one example per parameter it checks. */
export const invalidRequest = (examples: Record<string, ProblemExample>) =>
  problemResponse('`validation_failed`: a parameter, header or the body is invalid; `errors` names each one.', examples, RATE_LIMIT_STATE);

export const INVALID_DEVICE_ID: ProblemExample = {
  summary: '?device_id=meter-1042',
  problem: problemThrownBy(() => parseDeviceId('meter-1042', 'device_id')),
};

export const INVALID_TIME_ZONE: ProblemExample = {
  summary: 'X-Timezone: Mars/Olympus',
  problem: problemThrownBy(() => requestedZone('Mars/Olympus')),
};

/** 404 of the single-device routes. */
export const UNKNOWN_DEVICE = problemResponse(
  '`not_found`: the organization has no device with this id.',
  { not_found: { summary: 'A device of no meter of the organization', problem: notFound('device 1043 not found') } },
  RATE_LIMIT_STATE,
);
