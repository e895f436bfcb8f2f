import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, type SchemaObject } from '@nestjs/swagger';
import { openApiSchemaOf, problemResponse, RETRY_AFTER_HEADER } from '@meter/http';
import { loginRequest } from './login.schema';

/** Contract 4. */
const SESSION: SchemaObject = {
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in'],
  properties: {
    access_token: { type: 'string', description: 'Opaque session token: send it as `Authorization: Bearer <access_token>`.' },
    token_type: { type: 'string', enum: ['Bearer'] },
    expires_in: { type: 'integer', minimum: 1, description: 'Seconds the session lives (SESSION_TTL_SECONDS, default 3600).' },
  },
};

export const ApiLogin = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Log in as an organization admin',
      description: 'Exchanges email and password for a Bearer session token; repeated failures are throttled.',
      // Empty: the one route a client calls before it holds a token overrides the document's Bearer requirement.
      security: [],
    }),
    ApiBody({ required: true, schema: openApiSchemaOf(loginRequest) }),
    ApiOkResponse({ description: 'The session.', schema: SESSION }),
    ApiResponse({ status: 401, ...problemResponse('`invalid_credentials`: the email or the password is wrong (the same answer for both).') }),
    ApiResponse({
      status: 429,
      ...problemResponse('`rate_limited`: too many failed logins for this email or from this address. Honour Retry-After.', RETRY_AFTER_HEADER),
    }),
    ApiResponse({
      status: 503,
      ...problemResponse(
        '`throttle_unavailable`: logins pause while the failed-attempt counter (Redis) is unreachable. Honour Retry-After.',
        RETRY_AFTER_HEADER,
      ),
    }),
  );

export const ApiLogout = () =>
  applyDecorators(
    ApiOperation({ summary: 'End the current session', description: 'The Bearer token of the request stops working at once.' }),
    ApiNoContentResponse({ description: 'The session is ended.' }),
  );
