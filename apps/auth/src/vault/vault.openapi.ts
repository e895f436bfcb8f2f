import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiResponse, type SchemaObject } from '@nestjs/swagger';
import { VAULT_ENTRY_FIELDS, VAULT_ENTRY_TYPES, VAULT_NAMESPACE_PATTERN, vaultEntrySummary, type VaultEntryType } from '@meter/contracts';
import { openApiSchemaOf, problemResponse, RETRY_AFTER_HEADER } from '@meter/http';

/** What spec 2.7 and the vault's validation (apps/vault/src/entries/entry-input.ts) say of some fields. */
const FIELD_NOTES: Record<string, SchemaObject> = {
  end_point: { format: 'uri', description: 'URL of the object storage service (http:// or https:// with a host).' },
  tenant_id: { description: 'Directory identifier.' },
  client_id: { description: 'Application identifier.' },
  connection_string: {
    description: 'An https:// URL, or a `Key=Value;` account or shared-access connection string naming AccountName or an *Endpoint URL.',
  },
  credentials_json: {
    // JSON Schema 2020-12 (OpenAPI 3.1) keyword the SchemaObject type of @nestjs/swagger does not declare.
    ...({ contentMediaType: 'application/json' } as SchemaObject),
    description: 'The service-account JSON document as a string (quotes escaped); it must hold a JSON object.',
  },
};

/** One alternative of the upsert body per type, from the field limits the vault enforces (VAULT_ENTRY_FIELDS). */
function entryOfType(type: VaultEntryType): SchemaObject {
  const limits: Record<string, number> = VAULT_ENTRY_FIELDS[type];
  return {
    type: 'object',
    title: type,
    required: ['namespace', 'type', 'data'],
    additionalProperties: false,
    properties: {
      namespace: {
        type: 'string',
        pattern: VAULT_NAMESPACE_PATTERN.source,
        maxLength: 100,
        description: 'Groups entries; the name an integration is activated with.',
        examples: ['batch'],
      },
      type: { type: 'string', enum: [type] },
      data: {
        type: 'object',
        required: Object.keys(limits),
        additionalProperties: false,
        properties: Object.fromEntries(
          Object.entries(limits).map(([name, max]) => [
            name,
            {
              type: 'string',
              minLength: 1,
              maxLength: max,
              ...FIELD_NOTES[name],
              description: `${FIELD_NOTES[name]?.description ?? ''} At most ${max} characters, not blank.`.trim(),
            },
          ]),
        ),
      },
    },
  };
}

const UPSERT_BODY: SchemaObject = {
  description: 'Spec 2.7: the entry of (namespace, type); `data` holds exactly the fields of its type.',
  oneOf: VAULT_ENTRY_TYPES.map(entryOfType),
};

/** What a vault route answers when the vault service fails it (VaultClient). */
const ApiVaultFailures = () =>
  applyDecorators(
    ApiResponse({ status: 502, ...problemResponse('`vault_bad_reply`: the vault service gave an answer the API could not use.') }),
    ApiResponse({ status: 503, ...problemResponse('`vault_unavailable`: the vault service did not answer in time. Honour Retry-After.', RETRY_AFTER_HEADER) }),
  );

export const ApiUpsertVaultEntry = () =>
  applyDecorators(
    ApiOperation({
      summary: 'Create or replace a vault entry',
      description: 'Seals the data of the (namespace, type) entry of the organization; the id is stable for that pair and the data cannot be read back.',
    }),
    ApiBody({ required: true, schema: UPSERT_BODY }),
    ApiOkResponse({
      description: 'The entry id.',
      schema: { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' } } },
    }),
    ApiVaultFailures(),
  );

export const ApiListVaultEntries = () =>
  applyDecorators(
    ApiOperation({
      summary: "List the organization's vault entries",
      description: 'Every entry with its fields masked (at most the last 4 characters, never more than a quarter).',
    }),
    ApiOkResponse({
      description: 'The entries.',
      schema: { type: 'object', required: ['entries'], properties: { entries: { type: 'array', items: openApiSchemaOf(vaultEntrySummary, 'output') } } },
    }),
    ApiVaultFailures(),
  );

export const ApiDeleteVaultEntry = () =>
  applyDecorators(
    ApiOperation({ summary: 'Delete a vault entry', description: 'Destroys the sealed data of the entry.' }),
    ApiParam({ name: 'id', required: true, description: 'The entry id.', schema: { type: 'string', format: 'uuid' } }),
    ApiNoContentResponse({ description: 'Deleted.' }),
    ApiNotFoundResponse(problemResponse('`not_found`: no vault entry with this id in the organization.')),
    ApiVaultFailures(),
  );
