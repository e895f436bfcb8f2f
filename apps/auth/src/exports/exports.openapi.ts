import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  exportRunListSchema,
  exportRunQueuedSchema,
  exportRunSchema,
  integrationCreateBody,
  integrationListSchema,
  integrationSchema,
  integrationUpdateBody,
  runRangeBody,
  type ExportRun,
  type Integration,
} from '@meter/contracts';
import { Documented, jsonBody, jsonResponse, noContent, notFound, problemResponse, RETRY_AFTER_HEADER, validationFailed } from '@meter/http';
import { INTEGRATIONS_SERVICE_FAILURES } from '../integrations/integrations-failures.openapi';
import { integrationsProblem, integrationsUnavailable } from '../integrations/integrations-problem';

const INTEGRATION_ID = '3c7f1e52-8a4d-4b19-9e06-5d2c8f7a1b34';
const RUN_ID = '9a1d4c77-2e5b-4f08-b3c6-7e8f0a2d5c91';

const RUN: ExportRun = {
  id: RUN_ID,
  status: 'succeeded',
  from: '2026-11-22',
  to: '2026-11-23',
  trigger: 'manual',
  created_at: '2026-11-24T08:15:02.114Z',
  started_at: '2026-11-24T08:15:02.530Z',
  finished_at: '2026-11-24T08:15:09.872Z',
  files: [
    { key: 'meters/dt=2026-11-22/consumption.csv', rows: 10000, bytes: 702114, sha256: '4f2a0c9e7b51d3a86e0f9c2b4d7a1e3f5b8c0d2e4f6a8b0c1d3e5f7a9b2c4d6e' },
    { key: 'meters/dt=2026-11-23/consumption.csv', rows: 10000, bytes: 701876, sha256: '9c1e3a5b7d9f0b2d4f6a8c0e2a4c6e8a0b2d4f6a8c0e2b4d6f8a0c2e4b6d8f0a' },
  ],
  error: null,
};

const FAILED_RUN: ExportRun = {
  ...RUN,
  id: '1b2c3d4e-5f60-4718-89a0-b1c2d3e4f506',
  status: 'failed',
  trigger: 'schedule',
  from: '2026-11-23',
  to: '2026-11-23',
  files: [],
  error: { code: 'access_denied', message: 'S3 answered AccessDenied' },
};

const INTEGRATION: Integration = {
  id: INTEGRATION_ID,
  type: 'batch_export',
  namespace: 'batch',
  storage_type: 's3_identity',
  destination: { bucket: 'riverside-meter-data', prefix: 'meters/' },
  format: 'csv',
  time_zone: 'Europe/Madrid',
  schedule: { at: '02:00' },
  status: 'active',
  created_at: '2026-11-20T16:40:12.008Z',
  last_run: RUN,
};

const integrationIdPath = z.object({ id: z.uuid().meta({ description: 'The integration id.', param: { example: INTEGRATION_ID } }) });
const runPath = integrationIdPath.extend({ runId: z.uuid().meta({ description: 'The run id.', param: { example: RUN_ID } }) });

// The bodies are the contract's schemas, which the integrations process validates with.
const createBody = integrationCreateBody;
const updateBody = integrationUpdateBody;

const runBody = runRangeBody;

const NOT_FOUND = problemResponse('`not_found`: the organization has no integration (or run) with this id.', {
  not_found: { summary: 'An id of no integration of this organization', problem: notFound('no integration with this id in the organization') },
});

/** What a route answers when the integrations service does not (IntegrationsClient). */
const SERVICE_FAILURES: Record<number, ResponseConfig> = {
  ...INTEGRATIONS_SERVICE_FAILURES,
  503: problemResponse(
    '`integrations_unavailable`: the integrations service did not answer in time (nothing was changed); `vault_unavailable`: the vault did not answer while the destination was checked. Honour Retry-After.',
    {
      integrations_unavailable: { summary: 'No integrations replica answers', problem: integrationsUnavailable() },
      vault_unavailable: {
        summary: 'The vault does not answer',
        problem: integrationsProblem({ code: 'vault_unavailable', detail: 'the vault did not answer' }),
      },
    },
    RETRY_AFTER_HEADER,
  ),
};

const DESTINATION_CHECK_FAILED = problemResponse(
  "`destination_check_failed`: writing or deleting the check object at the destination failed; `detail` names the storage's own error code.",
  {
    access_denied: {
      summary: 'The storage refused the credentials',
      problem: integrationsProblem({
        code: 'destination_check_failed',
        detail: 'the check write to riverside-meter-data failed: S3 answered AccessDenied (access_denied)',
      }),
    },
    no_bucket: {
      summary: 'No such bucket',
      problem: integrationsProblem({
        code: 'destination_check_failed',
        detail: 'the check write to riverside-meter-data failed: S3 answered NoSuchBucket (bucket_not_found)',
      }),
    },
  },
);

export const ApiCreateIntegration = () =>
  Documented({
    summary: 'Activate a batch export',
    description:
      "Every night at `schedule.at` (local time of `time_zone`) the previous local day of the organization's whole fleet is written to the destination: " +
      '`<prefix>dt=YYYY-MM-DD/consumption.<format>`, then `<prefix>dt=YYYY-MM-DD/_manifest.json`. Before answering, a small check object is written to the ' +
      'destination with the vault entry `(namespace, storage_type)` and deleted. docs/exports.md describes the files and columns.',
    request: {
      body: jsonBody('The integration.', createBody, {
        s3_csv: {
          summary: 'CSV to an S3 bucket, Madrid days',
          value: {
            type: 'batch_export',
            namespace: 'batch',
            storage_type: 's3_identity',
            destination: { bucket: 'riverside-meter-data', prefix: 'meters/' },
            format: 'csv',
            time_zone: 'Europe/Madrid',
            schedule: { at: '02:00' },
          },
        },
      }),
    },
    responses: {
      201: jsonResponse('The integration, active.', integrationSchema, { created: { summary: 'Activated', value: { ...INTEGRATION, last_run: null } } }),
      400: problemResponse('`validation_failed`: `errors` names each field; `storage_type` when the vault has no such entry.', {
        bad_fields: {
          summary: 'A bad prefix and format',
          problem: validationFailed([
            { field: 'destination.prefix', message: 'must end with / (or be empty)' },
            { field: 'format', message: 'must be one of csv, ndjson, parquet' },
          ]),
        },
        no_entry: {
          summary: 'No vault entry of that type in the namespace',
          problem: validationFailed([{ field: 'storage_type', message: 'the vault has no gcs_identity entry in namespace batch' }]),
        },
      }),
      422: DESTINATION_CHECK_FAILED,
      ...SERVICE_FAILURES,
    },
  });

export const ApiListIntegrations = () =>
  Documented({
    summary: "List the organization's integrations",
    description: 'Each with its newest run.',
    responses: {
      200: jsonResponse('The integrations, oldest first.', integrationListSchema, {
        one: { summary: 'One batch export', value: { integrations: [INTEGRATION] } },
      }),
      ...SERVICE_FAILURES,
    },
  });

export const ApiGetIntegration = () =>
  Documented({
    summary: 'Read an integration',
    description: 'With its newest run.',
    request: { params: integrationIdPath },
    responses: {
      200: jsonResponse('The integration.', integrationSchema, { active: { summary: 'An active batch export', value: INTEGRATION } }),
      404: NOT_FOUND,
      ...SERVICE_FAILURES,
    },
  });

export const ApiUpdateIntegration = () =>
  Documented({
    summary: 'Change or pause an integration',
    description:
      'Any of `format`, `time_zone`, `schedule`, `destination` (checked with a write, as on activation) and `status` (`paused` stops the schedule, `active` resumes it from its next time).',
    request: {
      params: integrationIdPath,
      body: jsonBody('The fields to change.', updateBody, { pause: { summary: 'Pause', value: { status: 'paused' } } }),
    },
    responses: {
      200: jsonResponse('The integration as changed.', integrationSchema, { paused: { summary: 'Paused', value: { ...INTEGRATION, status: 'paused' } } }),
      400: problemResponse('`validation_failed`: `errors` names each field.', {
        not_changeable: {
          summary: 'A field fixed at activation',
          problem: validationFailed([{ field: 'storage_type', message: 'cannot be changed; create another integration' }]),
        },
      }),
      404: NOT_FOUND,
      422: DESTINATION_CHECK_FAILED,
      ...SERVICE_FAILURES,
    },
  });

export const ApiDeleteIntegration = () =>
  Documented({
    summary: 'Delete an integration',
    description: 'Its schedule, runs and queued days go with it; files already written stay in the storage.',
    request: { params: integrationIdPath },
    responses: { 204: noContent('Deleted.'), 404: NOT_FOUND, ...SERVICE_FAILURES },
  });

export const ApiQueueRun = () =>
  Documented({
    summary: 'Export a range of local days now',
    description:
      "Queues a run for the local days `from` to `to` (inclusive) of the integration's zone; without a body, yesterday. Each day is written (and overwritten) under its `dt=` prefix.",
    request: {
      params: integrationIdPath,
      body: {
        ...jsonBody('The days; optional.', runBody, { range: { summary: 'Two days', value: { from: '2026-11-22', to: '2026-11-23' } } }),
        required: false,
      },
    },
    responses: {
      202: jsonResponse('The run, queued.', exportRunQueuedSchema, {
        queued: { summary: 'Queued', value: { id: RUN_ID, status: 'queued', from: '2026-11-22', to: '2026-11-23' } },
      }),
      400: problemResponse('`validation_failed`: `errors` names `from`, `to` or `body`.', {
        future: {
          summary: 'A day after today',
          problem: validationFailed([{ field: 'to', message: 'must not be after today (2026-11-24 in Europe/Madrid)' }]),
        },
      }),
      404: NOT_FOUND,
      ...SERVICE_FAILURES,
    },
  });

export const ApiListRuns = () =>
  Documented({
    summary: "List an integration's runs",
    description: 'Newest first (the last 100), each with its files and error.',
    request: { params: integrationIdPath },
    responses: {
      200: jsonResponse('The runs.', exportRunListSchema, { two: { summary: 'A failed and a succeeded run', value: { runs: [FAILED_RUN, RUN] } } }),
      404: NOT_FOUND,
      ...SERVICE_FAILURES,
    },
  });

export const ApiGetRun = () =>
  Documented({
    summary: 'Read a run',
    description: 'Its status, days, trigger, files and error.',
    request: { params: runPath },
    responses: {
      200: jsonResponse('The run.', exportRunSchema, {
        succeeded: { summary: 'Two days written', value: RUN },
        failed: { summary: 'Refused', value: FAILED_RUN },
      }),
      404: NOT_FOUND,
      ...SERVICE_FAILURES,
    },
  });
