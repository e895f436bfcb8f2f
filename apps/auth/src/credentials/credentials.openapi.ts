import { applyDecorators } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiResponse,
  type SchemaObject,
} from '@nestjs/swagger';
import { openApiSchemaOf, problemResponse } from '@meter/http';
import { createCredentialRequest, updateCredentialRequest } from './credential-schemas';

const TIMESTAMP: SchemaObject = { type: 'string', format: 'date-time', description: 'ISO 8601 UTC with milliseconds.' };

/** Fields of spec 2.1 every view of a credential has. */
const COMMON = {
  id: { type: 'string', examples: ['cred_4fQm7yX2bN9pLw3cR8kT1A'] },
  type: { type: 'string', enum: ['secret', 'public'] },
  access_key: { type: 'string', pattern: '^(sk|pk)_live_', description: '`sk_live_...` for secret credentials, `pk_live_...` for public ones.' },
  scopes: { type: 'array', items: { type: 'string', examples: ['meter:consumption:read'] } },
  allowed_cidrs: { type: 'array', description: 'IPv4/IPv6 CIDR ranges; empty allows any address.', items: { type: 'string' } },
  created_at: TIMESTAMP,
} satisfies Record<string, SchemaObject>;

const CREATED: SchemaObject = {
  type: 'object',
  required: [...Object.keys(COMMON), 'secret_key'],
  properties: {
    ...COMMON,
    secret_key: {
      type: ['string', 'null'],
      description: 'Shown in this response only and never again (revoke and create another if lost); null for a public credential, which signs with `public`.',
    },
  },
};

/** Contract 4: every field but secret_key, plus status and timestamps. */
const CREDENTIAL: SchemaObject = {
  type: 'object',
  required: [...Object.keys(COMMON), 'name', 'status', 'revoked_at', 'last_used_at'],
  properties: {
    ...COMMON,
    name: { type: 'string' },
    status: { type: 'string', enum: ['active', 'revoked'] },
    revoked_at: { ...TIMESTAMP, type: ['string', 'null'] },
    last_used_at: { ...TIMESTAMP, type: ['string', 'null'], description: 'Last accepted gateway request, when known.' },
  },
};

const ID = ApiParam({ name: 'id', required: true, description: 'The credential id.', schema: { type: 'string' } });
const UNKNOWN = ApiNotFoundResponse(problemResponse('`not_found`: no credential with this id in the organization.'));

export const ApiAvailableScopes = () =>
  applyDecorators(
    ApiOperation({ summary: 'Scopes the organization may grant', description: 'The scopes a new credential of this organization may hold.' }),
    ApiOkResponse({
      description: 'The scopes.',
      schema: {
        type: 'object',
        required: ['scopes'],
        properties: { scopes: { type: 'array', items: { type: 'string', examples: ['meter:consumption:read'] } } },
      },
    }),
  );

export const ApiCreateCredential = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Create an API credential',
      description: 'Issues an access key (and, for a secret credential, a secret key shown only in this answer).',
    }),
    ApiBody({ required: true, schema: openApiSchemaOf(createCredentialRequest) }),
    ApiCreatedResponse({ description: 'The credential with its secret_key.', schema: CREATED }),
  );

export const ApiListCredentials = () =>
  applyDecorators(
    ApiOperation({ summary: "List the organization's credentials", description: 'Every credential, active and revoked, oldest first, without secrets.' }),
    ApiOkResponse({
      description: 'The credentials.',
      schema: { type: 'object', required: ['credentials'], properties: { credentials: { type: 'array', items: CREDENTIAL } } },
    }),
  );

export const ApiGetCredential = () =>
  applyDecorators(
    ApiOperation({ summary: 'Read one credential', description: 'One credential of the organization, without its secret.' }),
    ID,
    ApiOkResponse({ description: 'The credential.', schema: CREDENTIAL }),
    UNKNOWN,
  );

export const ApiSetAllowedCidrs = () =>
  applyDecorators(
    ApiOperation({
      summary: "Set a credential's allowed source ranges",
      description: 'Replaces allowed_cidrs (IPv4 and IPv6 CIDRs; an empty list allows any address); the gateway applies it within a second.',
    }),
    ID,
    ApiBody({ required: true, schema: openApiSchemaOf(updateCredentialRequest) }),
    ApiOkResponse({ description: 'The credential as it is now.', schema: CREDENTIAL }),
    UNKNOWN,
    ApiResponse({
      status: 409,
      ...problemResponse('`credential_revoked`: a revoked credential keeps its list; `concurrent_modification`: changed meanwhile, retry.'),
    }),
  );

export const ApiRevokeCredential = () =>
  applyDecorators(
    ApiOperation({ summary: 'Revoke a credential', description: 'The gateway refuses the credential within a second; revoking a revoked one is a no-op.' }),
    ID,
    ApiNoContentResponse({ description: 'Revoked.' }),
    UNKNOWN,
  );
