import {
  INTEGRATION_FIXED_FIELDS,
  integrationCreateBody,
  integrationUpdateBody,
  type ExportFormat,
  type ExportStorageType,
  type IntegrationStatus,
} from '@meter/contracts';
import { readInput, type FieldError, type InputResult } from '@meter/http';

export type { FieldError };

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

/** The body of POST /integrations: every violation, each naming its field, or the settings with defaults. */
export function readIntegrationCreate(body: unknown): InputResult<IntegrationSettings> {
  const read = readInput(integrationCreateBody, body, { unknownFieldsFirst: true });
  if (!read.ok) return read;
  const { namespace, storage_type, destination, format, time_zone, schedule } = read.value;
  return {
    ok: true,
    value: { namespace, storageType: storage_type, destination, format: format ?? 'csv', timeZone: time_zone ?? 'UTC', scheduleAt: schedule?.at ?? '02:00' },
  };
}

/** The body of PATCH /integrations/{id}: only the fields given, validated. */
export function readIntegrationUpdate(body: unknown): InputResult<IntegrationChanges> {
  const read = readInput(integrationUpdateBody, body, {
    unknownFieldsFirst: true,
    unknownField: (field) => (INTEGRATION_FIXED_FIELDS.includes(field) ? 'cannot be changed; create another integration' : 'is not a known field'),
  });
  if (!read.ok) return read;
  const { destination, status, format, time_zone, schedule } = read.value;
  const changes: IntegrationChanges = {};
  if (destination !== undefined) changes.destination = destination;
  if (status !== undefined) changes.status = status;
  if (format !== undefined) changes.format = format;
  if (time_zone !== undefined) changes.timeZone = time_zone;
  if (schedule !== undefined) changes.scheduleAt = schedule.at;
  return { ok: true, value: changes };
}
