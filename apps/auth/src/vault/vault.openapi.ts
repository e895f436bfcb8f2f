import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { Documented, jsonBody, jsonResponse, noContent, notFound, ProblemException, problemResponse, RETRY_AFTER_HEADER, validationFailed } from '@meter/http';
import { vaultEntryBody } from '@meter/contracts';
import { NON_SECRET_FIELD_NAMES, vaultEntryIdPath, vaultEntryIdSchema, vaultEntryListSchema } from './vault.schemas';
import { integrationsUnavailable } from '../integrations/integrations-problem';
import { vaultProblem } from './vault-problem';

const ENTRY_ID = '0b6f3c1e-94d2-4a7b-8e15-3c9d2f7a6b40';
const INTEGRATION_ID = '5d2c8a41-7e3b-4f60-9a1d-2b8e6c4f0a73';

/** What a vault route answers when the vault service fails it (VaultClient, vaultProblem). */
const VAULT_FAILURES: Record<number, ResponseConfig> = {
  500: problemResponse('`internal_error`: the vault service could not complete the request; quote the request id when reporting it.', {
    internal_error: {
      summary: 'The vault service failed',
      problem: vaultProblem({ code: 'internal', detail: 'the vault could not complete the request' }),
    },
  }),
  502: problemResponse('`vault_bad_reply`: the vault service gave an answer the API could not use.', {
    vault_bad_reply: {
      summary: 'An answer outside the vault contract',
      problem: new ProblemException(502, 'vault_bad_reply', 'the vault service gave an unexpected answer'),
    },
  }),
  503: problemResponse(
    '`vault_unavailable`: the vault service did not answer in time. Honour Retry-After.',
    {
      vault_unavailable: {
        summary: 'No vault replica answers',
        problem: new ProblemException(503, 'vault_unavailable', 'the vault service is not reachable right now; try again shortly', {}, { 'Retry-After': '5' }),
      },
    },
    RETRY_AFTER_HEADER,
  ),
};

export const ApiUpsertVaultEntry = () =>
  Documented({
    summary: 'Create or replace a vault entry',
    description:
      'Seals the data of the (namespace, type) entry of the organization. The id is stable for that pair; the data can never be read back, only replaced.',
    request: {
      body: jsonBody('The entry; `data` holds exactly the fields of its type.', vaultEntryBody, {
        s3_identity: {
          summary: 'Object storage keys',
          value: {
            namespace: 'batch',
            type: 's3_identity',
            data: {
              access_key: 'AKIAEXAMPLE7Q2M4XK3B',
              secret_key: 'EXAMPLEwJalrXUtnFEMI/K7MDENG/bPxRfiCYzq3v',
              end_point: 'https://s3.eu-west-1.amazonaws.com',
              region: 'eu-west-1',
            },
          },
        },
        api_token_identity: { summary: 'An API token', value: { namespace: 'batch', type: 'api_token_identity', data: { token: 'EXAMPLE-tok-9f3b2c7d1e4a' } } },
      }),
    },
    responses: {
      200: jsonResponse('The entry id.', vaultEntryIdSchema, { stored: { summary: 'The entry of (batch, s3_identity)', value: { id: ENTRY_ID } } }),
      400: problemResponse('`validation_failed`: the entry is invalid; `errors` names each field (`namespace`, `type`, `data.<field>`).', {
        too_long: {
          summary: 'A token over 1024 characters',
          problem: validationFailed([{ field: 'data.token', message: 'must be at most 1024 characters (got 1025)' }]),
        },
        fields_of_another_type: {
          summary: 'Fields of another type',
          problem: validationFailed([
            { field: 'data.token', message: 'is not a field of s3_identity' },
            { field: 'data.access_key', message: 'is required' },
            { field: 'data.secret_key', message: 'is required' },
            { field: 'data.end_point', message: 'is required' },
            { field: 'data.region', message: 'is required' },
          ]),
        },
        not_an_object: { summary: 'A body that is not a JSON object', problem: validationFailed([{ field: 'body', message: 'must be a JSON object' }]) },
      }),
      ...VAULT_FAILURES,
    },
  });

export const ApiListVaultEntries = () =>
  Documented({
    summary: "List the organization's vault entries",
    description:
      `Every entry with its data fields: where it goes and as whom (${NON_SECRET_FIELD_NAMES}) in clear; ` +
      'the secrets masked, `****` and at most the last 4 characters, never more than a quarter of the value.',
    responses: {
      200: jsonResponse('The entries.', vaultEntryListSchema, {
        two: {
          summary: 'Two entries of namespace batch',
          value: {
            entries: [
              {
                id: ENTRY_ID,
                namespace: 'batch',
                type: 's3_identity',
                created_at: '2026-11-02T10:12:44.512Z',
                updated_at: '2026-11-21T09:20:03.871Z',
                version: 2,
                fields: { access_key: '****XK3B', secret_key: '****zq3v', end_point: 'https://s3.eu-west-1.amazonaws.com', region: 'eu-west-1' },
              },
              {
                id: '7d2a9e40-5c1b-4f86-a3e7-19b0c6d4f258',
                namespace: 'batch',
                type: 'api_token_identity',
                created_at: '2026-11-21T09:22:17.036Z',
                updated_at: '2026-11-21T09:22:17.036Z',
                version: 1,
                fields: { token: '****1e4a' },
              },
            ],
          },
        },
      }),
      ...VAULT_FAILURES,
    },
  });

export const ApiDeleteVaultEntry = () =>
  Documented({
    summary: 'Delete a vault entry',
    description:
      'Destroys the sealed data of the entry. An entry that an active integration opens (its `namespace` and `storage_type`) is not deleted: 409 `vault_entry_in_use` names those integrations; pause or delete them first.',
    request: { params: vaultEntryIdPath },
    responses: {
      204: noContent('Deleted.'),
      404: problemResponse('`not_found`: the organization has no vault entry with this id.', {
        not_found: { summary: 'An id of no entry of this organization', problem: notFound('no vault entry with this id in the organization') },
      }),
      409: problemResponse('`vault_entry_in_use`: active integrations use the entry; `integrations` lists their ids. Nothing was deleted.', {
        vault_entry_in_use: {
          summary: 'An entry an active export uses',
          problem: vaultProblem({
            code: 'in_use',
            detail: `the s3_identity entry of namespace batch is used by active integrations ${INTEGRATION_ID}: pause or delete them first`,
            integration_ids: [INTEGRATION_ID],
          }),
        },
      }),
      ...VAULT_FAILURES,
      503: problemResponse(
        '`vault_unavailable` or `integrations_unavailable`: the vault service, or the integrations service asked which integrations use the entry, did not answer in time; nothing was deleted. Honour Retry-After.',
        {
          vault_unavailable: {
            summary: 'No vault replica answers',
            problem: new ProblemException(
              503,
              'vault_unavailable',
              'the vault service is not reachable right now; try again shortly',
              {},
              { 'Retry-After': '5' },
            ),
          },
          integrations_unavailable: { summary: 'No integrations replica answers in time', problem: integrationsUnavailable() },
        },
        RETRY_AFTER_HEADER,
      ),
    },
  });
