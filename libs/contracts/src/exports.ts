import { z } from 'zod';
import { integrationsCaller, integrationsReply } from './integrations';

/**
 * Batch exports (docs/exports.md): each night an organization's daily
 * consumption lands in its own bucket. Auth forwards the `/integrations`
 * routes to the integrations process over NATS (`integrations.rpc.export.*`);
 * the integrations process validates the bodies, so its errors name their
 * fields. One schema per request and per answer.
 */

export const EXPORT_FORMATS = ['csv', 'ndjson', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The vault entry types an export can write with. */
export const EXPORT_STORAGE_TYPES = ['s3_identity', 'azure_identity', 'gcs_identity'] as const;
export type ExportStorageType = (typeof EXPORT_STORAGE_TYPES)[number];

export const INTEGRATION_STATUSES = ['active', 'paused'] as const;
export type IntegrationStatus = (typeof INTEGRATION_STATUSES)[number];

export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const RUN_TRIGGERS = ['manual', 'schedule', 'restatement'] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

/** Why a run failed; the storage's and the vault's own words stay in `message`, never a secret. */
export const EXPORT_ERROR_CODES = [
  'access_denied',
  'bucket_not_found',
  'destination_unreachable',
  'vault_entry_missing',
  'vault_entry_unreadable',
  'internal',
] as const;
export type ExportErrorCode = (typeof EXPORT_ERROR_CODES)[number];

/** The columns of every data file, in order (CSV header, NDJSON keys, Parquet schema). */
export const EXPORT_COLUMNS = ['device_id', 'channel', 'date', 'consumption', 'unit', 'register_start', 'register_end', 'alerts', 'quality'] as const;
export type ExportColumn = (typeof EXPORT_COLUMNS)[number];

/** A run covers at most this many local days. */
export const MAX_RUN_DAYS = 366;

/** Late readings and corrections restate exported days up to this many days back. */
export const RESTATEMENT_DAYS = 35;

const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;
const localDate = z.string().regex(LOCAL_DATE).meta({ description: 'A local date, `YYYY-MM-DD`.', example: '2026-11-23' });
const timestamp = z.iso.datetime().meta({ description: 'RFC 3339, UTC.' });

export const exportFileSchema = z
  .object({
    key: z.string().meta({ description: 'The object key (blob name) of the data file.', example: 'meters/dt=2026-11-23/consumption.csv' }),
    rows: z.number().int().min(0),
    bytes: z.number().int().min(0),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .meta({ description: 'SHA-256 of the data object, lower-case hex; the manifest beside it carries the same.' }),
  })
  .meta({ id: 'ExportFile' });

export const exportRunErrorSchema = z
  .object({
    code: z.enum(EXPORT_ERROR_CODES),
    message: z.string().meta({ description: 'For people; names the storage or vault error code, never a secret.' }),
  })
  .meta({ id: 'ExportRunError' });

export const exportRunSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(RUN_STATUSES),
    from: localDate,
    to: localDate,
    trigger: z.enum(RUN_TRIGGERS),
    created_at: timestamp,
    started_at: timestamp.nullable(),
    finished_at: timestamp.nullable(),
    files: z.array(exportFileSchema).meta({ description: 'The data files written so far, by date.' }),
    error: exportRunErrorSchema.nullable(),
  })
  .meta({ id: 'ExportRun' });
export type ExportRun = z.infer<typeof exportRunSchema>;

export const exportRunListSchema = z.object({ runs: z.array(exportRunSchema).meta({ description: 'Newest first.' }) }).meta({ id: 'ExportRunList' });

export const exportRunQueuedSchema = z.object({ id: z.uuid(), status: z.literal('queued'), from: localDate, to: localDate }).meta({ id: 'ExportRunQueued' });

export const integrationSchema = z
  .object({
    id: z.uuid(),
    type: z.literal('batch_export'),
    namespace: z.string(),
    storage_type: z.enum(EXPORT_STORAGE_TYPES),
    destination: z.object({
      bucket: z.string().meta({ description: 'The S3 bucket, the Azure container or the GCS bucket.' }),
      prefix: z.string().meta({ description: 'Key prefix: empty, or ending with `/`.' }),
    }),
    format: z.enum(EXPORT_FORMATS),
    time_zone: z.string().meta({ description: 'The IANA zone whose local days are exported, as given.' }),
    schedule: z.object({ at: z.string().meta({ description: 'Local time `HH:MM` at which the previous local day is exported.' }) }),
    status: z.enum(INTEGRATION_STATUSES),
    created_at: timestamp,
    last_run: exportRunSchema.nullable().meta({ description: 'The newest run, or null before the first.' }),
  })
  .meta({ id: 'Integration' });
export type Integration = z.infer<typeof integrationSchema>;

export const integrationListSchema = z.object({ integrations: z.array(integrationSchema) }).meta({ id: 'IntegrationList' });

/** `<prefix>dt=<date>/_manifest.json`, written after its data file is complete. */
export const exportManifestSchema = z.object({
  integration_id: z.uuid(),
  org_id: z.string(),
  date: localDate,
  time_zone: z.string(),
  format: z.enum(EXPORT_FORMATS),
  rows: z.number().int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  columns: z.array(z.enum(EXPORT_COLUMNS)),
  generated_at: timestamp,
});
export type ExportManifest = z.infer<typeof exportManifestSchema>;

// --- Requests over NATS (integrations.rpc.export.*). Bodies travel as received: the integrations process validates them.

const integrationId = z.string().min(1).max(100);

export const EXPORT_OPERATIONS = {
  create: 'export.create',
  list: 'export.list',
  get: 'export.get',
  update: 'export.update',
  delete: 'export.delete',
  queueRun: 'export.run',
  listRuns: 'export.runs',
  getRun: 'export.run.get',
} as const;

export const exportCreateRequest = integrationsCaller.extend({ body: z.unknown() });
export const exportListRequest = integrationsCaller;
export const exportGetRequest = integrationsCaller.extend({ integration_id: integrationId });
export const exportUpdateRequest = exportGetRequest.extend({ body: z.unknown() });
export const exportDeleteRequest = exportGetRequest;
export const exportQueueRunRequest = exportGetRequest.extend({ body: z.unknown() });
export const exportListRunsRequest = exportGetRequest;
export const exportGetRunRequest = exportGetRequest.extend({ run_id: z.string().min(1).max(100) });

export const exportIntegrationReply = integrationsReply(integrationSchema);
export const exportIntegrationListReply = integrationsReply(integrationListSchema);
export const exportDeleteReply = integrationsReply(z.object({ id: z.uuid() }));
export const exportRunQueuedReply = integrationsReply(exportRunQueuedSchema);
export const exportRunListReply = integrationsReply(exportRunListSchema);
export const exportRunReply = integrationsReply(exportRunSchema);
