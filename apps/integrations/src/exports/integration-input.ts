import { isValidTimeZone } from '@meter/consumption';
import {
  EXPORT_FORMATS,
  EXPORT_STORAGE_TYPES,
  INTEGRATION_STATUSES,
  VAULT_NAMESPACE_PATTERN,
  type ExportFormat,
  type ExportStorageType,
  type IntegrationStatus,
} from '@meter/contracts';

export interface FieldError {
  field: string;
  message: string;
}

export interface Destination {
  bucket: string;
  prefix: string;
}

/** An integration's settings as the admin gives them (POST /integrations), defaults applied. */
export interface IntegrationSettings {
  namespace: string;
  storageType: ExportStorageType;
  destination: Destination;
  format: ExportFormat;
  timeZone: string;
  scheduleAt: string;
}

/** What PATCH /integrations/{id} may change. */
export interface IntegrationChanges {
  destination?: Destination;
  format?: ExportFormat;
  timeZone?: string;
  scheduleAt?: string;
  status?: IntegrationStatus;
}

type Result<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

const CREATE_FIELDS = ['type', 'namespace', 'storage_type', 'destination', 'format', 'time_zone', 'schedule'];
const UPDATE_FIELDS = ['format', 'time_zone', 'schedule', 'destination', 'status'];
/** S3 (3-63), Azure containers (3-63) and GCS (3-222): lower-case letters, digits, `.`, `-`, `_`, a letter or digit at each end. */
const BUCKET = /^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$/;
const SCHEDULE_AT = /^([01]\d|2[0-3]):[0-5]\d$/;
const MAX_PREFIX = 512;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const oneOf = (values: readonly string[]) => values.join(', ');

/** The body of POST /integrations: every violation, each naming its field, or the settings with defaults. */
export function readIntegrationCreate(body: unknown): Result<IntegrationSettings> {
  if (!isObject(body)) return { ok: false, errors: [{ field: 'body', message: 'must be a JSON object' }] };
  const errors: FieldError[] = unknownFields(body, CREATE_FIELDS, 'is not a known field');
  if (body.type === undefined) errors.push({ field: 'type', message: 'is required' });
  else if (body.type !== 'batch_export') errors.push({ field: 'type', message: 'must be batch_export' });
  if (body.namespace === undefined) errors.push({ field: 'namespace', message: 'is required' });
  else if (typeof body.namespace !== 'string' || !VAULT_NAMESPACE_PATTERN.test(body.namespace)) {
    errors.push({ field: 'namespace', message: 'must be a vault namespace: 1 to 100 letters, digits, _, - or ., starting with a letter or digit' });
  }
  if (body.storage_type === undefined) errors.push({ field: 'storage_type', message: 'is required' });
  else if (!(EXPORT_STORAGE_TYPES as readonly unknown[]).includes(body.storage_type)) {
    errors.push({ field: 'storage_type', message: `must be one of ${oneOf(EXPORT_STORAGE_TYPES)}` });
  }
  const destination = body.destination === undefined ? undefined : readDestination(body.destination, errors);
  if (body.destination === undefined) errors.push({ field: 'destination', message: 'is required' });
  const common = readCommon(body, errors);
  if (errors.length) return { ok: false, errors };
  return {
    ok: true,
    value: {
      namespace: body.namespace as string,
      storageType: body.storage_type as ExportStorageType,
      destination: destination!,
      format: common.format ?? 'csv',
      timeZone: common.timeZone ?? 'UTC',
      scheduleAt: common.scheduleAt ?? '02:00',
    },
  };
}

/** The body of PATCH /integrations/{id}: only the fields given, validated. */
export function readIntegrationUpdate(body: unknown): Result<IntegrationChanges> {
  if (!isObject(body)) return { ok: false, errors: [{ field: 'body', message: 'must be a JSON object' }] };
  const errors: FieldError[] = [];
  for (const field of Object.keys(body)) {
    if (UPDATE_FIELDS.includes(field)) continue;
    errors.push({ field, message: CREATE_FIELDS.includes(field) ? 'cannot be changed; create another integration' : 'is not a known field' });
  }
  const changes: IntegrationChanges = {};
  if (body.destination !== undefined) changes.destination = readDestination(body.destination, errors);
  if (body.status !== undefined) {
    if ((INTEGRATION_STATUSES as readonly unknown[]).includes(body.status)) changes.status = body.status as IntegrationStatus;
    else errors.push({ field: 'status', message: `must be one of ${oneOf(INTEGRATION_STATUSES)}` });
  }
  Object.assign(changes, readCommon(body, errors));
  if (errors.length) return { ok: false, errors };
  return { ok: true, value: changes };
}

function unknownFields(body: Record<string, unknown>, known: readonly string[], message: string): FieldError[] {
  return Object.keys(body)
    .filter((field) => !known.includes(field))
    .map((field) => ({ field, message }));
}

function readCommon(body: Record<string, unknown>, errors: FieldError[]): { format?: ExportFormat; timeZone?: string; scheduleAt?: string } {
  const result: { format?: ExportFormat; timeZone?: string; scheduleAt?: string } = {};
  if (body.format !== undefined) {
    if ((EXPORT_FORMATS as readonly unknown[]).includes(body.format)) result.format = body.format as ExportFormat;
    else errors.push({ field: 'format', message: `must be one of ${oneOf(EXPORT_FORMATS)}` });
  }
  if (body.time_zone !== undefined) {
    if (typeof body.time_zone === 'string' && isValidTimeZone(body.time_zone)) result.timeZone = body.time_zone;
    else errors.push({ field: 'time_zone', message: 'must be an IANA time zone such as Europe/Madrid or UTC' });
  }
  if (body.schedule !== undefined) {
    if (!isObject(body.schedule)) errors.push({ field: 'schedule', message: 'must be an object {"at": "HH:MM"}' });
    else {
      errors.push(...unknownFields(body.schedule, ['at'], 'is not a known field').map((e) => ({ ...e, field: `schedule.${e.field}` })));
      if (body.schedule.at === undefined) errors.push({ field: 'schedule.at', message: 'is required' });
      else if (typeof body.schedule.at === 'string' && SCHEDULE_AT.test(body.schedule.at)) result.scheduleAt = body.schedule.at;
      else errors.push({ field: 'schedule.at', message: 'must be a local time HH:MM, 00:00 to 23:59' });
    }
  }
  return result;
}

function readDestination(value: unknown, errors: FieldError[]): Destination | undefined {
  if (!isObject(value)) {
    errors.push({ field: 'destination', message: 'must be an object {"bucket", "prefix"?}' });
    return undefined;
  }
  errors.push(...unknownFields(value, ['bucket', 'prefix'], 'is not a known field').map((e) => ({ ...e, field: `destination.${e.field}` })));
  const before = errors.length;
  if (value.bucket === undefined) errors.push({ field: 'destination.bucket', message: 'is required' });
  else if (typeof value.bucket !== 'string' || !BUCKET.test(value.bucket)) {
    errors.push({
      field: 'destination.bucket',
      message: 'must be a bucket or container name: 3 to 222 lower-case letters, digits, ., - or _, starting and ending with a letter or digit',
    });
  }
  const prefix = value.prefix ?? '';
  if (typeof prefix !== 'string') errors.push({ field: 'destination.prefix', message: 'must be a string' });
  else if (prefix !== '') {
    if (!prefix.endsWith('/')) errors.push({ field: 'destination.prefix', message: 'must end with / (or be empty)' });
    else if (prefix.startsWith('/') || prefix.includes('//'))
      errors.push({ field: 'destination.prefix', message: 'must not start with / nor hold an empty segment' });
    else if (prefix.length > MAX_PREFIX) errors.push({ field: 'destination.prefix', message: `must be at most ${MAX_PREFIX} characters` });
    else if (
      [...prefix].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f || c === '\\') ||
      prefix.split('/').some((part) => part === '.' || part === '..')
    ) {
      errors.push({ field: 'destination.prefix', message: 'must not hold control characters, \\, . or .. segments' });
    }
  }
  return errors.length === before ? { bucket: value.bucket as string, prefix: prefix as string } : undefined;
}
