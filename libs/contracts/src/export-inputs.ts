import { z } from 'zod';
import { isLocalDate, isValidTimeZone } from '@meter/consumption';
import { EXPORT_FORMATS, EXPORT_STORAGE_TYPES, INTEGRATION_STATUSES, MAX_RUN_DAYS } from './exports';
import { VAULT_NAMESPACE_PATTERN } from './vault';

/**
 * The bodies of POST and PATCH /integrations (docs/exports.md): one schema
 * each, which the integrations process validates with (every violation, each
 * naming its field) and the management API's document describes.
 */

/** S3 (3-63), Azure containers (3-63) and GCS (3-222): lower-case letters, digits, `.`, `-`, `_`, a letter or digit at each end. */
const BUCKET = /^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/;
const SCHEDULE_AT = /^([01]\d|2[0-3]):[0-5]\d$/;
export const MAX_EXPORT_PREFIX = 512;

const oneOf = (values: readonly string[]) => `must be one of ${values.join(', ')}`;
/** A string matching `pattern`, with one message for anything else. */
const text = (pattern: RegExp, message: string) => z.string({ error: message }).regex(pattern, { error: message });

const BUCKET_MESSAGE = 'must be a bucket or container name: 3 to 222 lower-case letters, digits, ., - or _, starting and ending with a letter or digit';
const NAMESPACE_MESSAGE = 'must be a vault namespace: 1 to 100 letters, digits, _, - or ., starting with a letter or digit';
const TIME_ZONE_MESSAGE = 'must be an IANA time zone such as Europe/Madrid or UTC';
const SCHEDULE_AT_MESSAGE = 'must be a local time HH:MM, 00:00 to 23:59';

/** Why a key prefix is refused, the first rule it breaks; undefined when it is fine. */
export function prefixProblem(prefix: string): string | undefined {
  if (prefix === '') return undefined;
  if (!prefix.endsWith('/')) return 'must end with / (or be empty)';
  if (prefix.startsWith('/') || prefix.includes('//')) return 'must not start with / nor hold an empty segment';
  if (prefix.length > MAX_EXPORT_PREFIX) return `must be at most ${MAX_EXPORT_PREFIX} characters`;
  const unsafe = [...prefix].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f || c === '\\');
  if (unsafe || prefix.split('/').some((part) => part === '.' || part === '..')) return 'must not hold control characters, \\, . or .. segments';
  return undefined;
}

const destination = z
  .strictObject(
    {
      bucket: text(BUCKET, BUCKET_MESSAGE).meta({ description: 'The S3 bucket, the Azure container or the GCS bucket.' }),
      prefix: z
        .string({ error: 'must be a string' })
        .check((ctx) => {
          const problem = prefixProblem(ctx.value);
          if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
        })
        .nullish()
        .transform((prefix) => prefix ?? '')
        .meta({ description: 'Key prefix, empty (default) or ending with `/`.' }),
    },
    { error: 'must be an object {"bucket", "prefix"?}' },
  )
  .meta({ id: 'ExportDestination' });

const format = z.enum(EXPORT_FORMATS, { error: oneOf(EXPORT_FORMATS) });
const timeZone = z.string({ error: TIME_ZONE_MESSAGE }).refine(isValidTimeZone, { error: TIME_ZONE_MESSAGE });
const schedule = z.strictObject(
  { at: text(SCHEDULE_AT, SCHEDULE_AT_MESSAGE).meta({ description: 'Local `HH:MM`.' }) },
  { error: 'must be an object {"at": "HH:MM"}' },
);
const FORMAT_DESCRIPTION = 'The file format of each exported day.';
const TIME_ZONE_DESCRIPTION = 'IANA zone of the exported local days.';

export const integrationCreateBody = z
  .strictObject(
    {
      type: z.literal('batch_export', { error: 'must be batch_export' }),
      namespace: text(VAULT_NAMESPACE_PATTERN, NAMESPACE_MESSAGE).meta({ description: 'The vault namespace of the storage entry.' }),
      storage_type: z
        .enum(EXPORT_STORAGE_TYPES, { error: oneOf(EXPORT_STORAGE_TYPES) })
        .meta({ description: 'The vault entry (namespace, storage_type) to write with.' }),
      destination,
      format: format.default('csv').meta({ description: FORMAT_DESCRIPTION }),
      time_zone: timeZone.default('UTC').meta({ description: TIME_ZONE_DESCRIPTION }),
      schedule: schedule.default({ at: '02:00' }),
    },
    { error: 'must be a JSON object' },
  )
  .meta({ id: 'IntegrationCreate' });
export type IntegrationCreateBody = z.output<typeof integrationCreateBody>;

export const integrationUpdateBody = z
  .strictObject(
    {
      destination: destination.optional(),
      status: z
        .enum(INTEGRATION_STATUSES, { error: oneOf(INTEGRATION_STATUSES) })
        .optional()
        .meta({ description: '`paused` stops the schedule; runs can still be queued by hand.' }),
      format: format.optional().meta({ description: FORMAT_DESCRIPTION }),
      time_zone: timeZone.optional().meta({ description: TIME_ZONE_DESCRIPTION }),
      schedule: schedule.optional(),
    },
    { error: 'must be a JSON object' },
  )
  .meta({ id: 'IntegrationUpdate' });
export type IntegrationUpdateBody = z.output<typeof integrationUpdateBody>;

/** Fields an integration keeps from its activation: PATCH names them so. */
export const INTEGRATION_FIXED_FIELDS: readonly string[] = ['type', 'namespace', 'storage_type'];

/** How readInput (@meter/http) reads POST /integrations: unknown fields first. */
export const INTEGRATION_CREATE_INPUT = { unknownFieldsFirst: true } as const;

/** How readInput (@meter/http) reads PATCH /integrations/{id}: a field fixed at activation is told so. */
export const INTEGRATION_UPDATE_INPUT = {
  unknownFieldsFirst: true,
  unknownField: (field: string) => (INTEGRATION_FIXED_FIELDS.includes(field) ? 'cannot be changed; create another integration' : 'is not a known field'),
} as const;

const LOCAL_DATE = 'must be a local date YYYY-MM-DD';
const runDate = (description: string) => z.string({ error: LOCAL_DATE }).refine(isLocalDate, { error: LOCAL_DATE }).optional().meta({ description });

/**
 * The body of POST /integrations/{id}/runs, when there is one: local dates of
 * the integration's zone. The rules that need the zone and the clock (`from`
 * not after `to`, at most MAX_RUN_DAYS, not after today) are the service's.
 */
export const runRangeBody = z
  .strictObject(
    {
      from: runDate('First local date, `YYYY-MM-DD` (with `to`).'),
      to: runDate(`Last local date, included; at most ${MAX_RUN_DAYS} days from \`from\`, not after today.`),
    },
    // Unknown fields get readInput's `is not a known field`.
    { error: (issue) => (issue.code === 'unrecognized_keys' ? undefined : 'must be a JSON object {"from", "to"} or empty') },
  )
  .meta({ id: 'ExportRunRequest' });

/** How readInput (@meter/http) reads a run's body: unknown fields first. */
export const RUN_RANGE_INPUT = { unknownFieldsFirst: true } as const;
