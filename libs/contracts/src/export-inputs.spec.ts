import { describe, expect, it } from 'vitest';
import { readInput } from '@meter/http';
import { INTEGRATION_CREATE_INPUT, INTEGRATION_UPDATE_INPUT, integrationCreateBody, integrationUpdateBody } from './export-inputs';

/** The integrations process reads the bodies so (apps/integrations, ExportHandlers). */
const readIntegrationCreate = (body: unknown) => readInput(integrationCreateBody, body, INTEGRATION_CREATE_INPUT);
const readIntegrationUpdate = (body: unknown) => readInput(integrationUpdateBody, body, INTEGRATION_UPDATE_INPUT);

const minimal = { type: 'batch_export', namespace: 'batch', storage_type: 's3_identity', destination: { bucket: 'meter-data' } };

describe('integrationCreateBody', () => {
  it('applies the defaults', () => {
    expect(readIntegrationCreate(minimal)).toEqual({
      ok: true,
      value: {
        type: 'batch_export',
        namespace: 'batch',
        storage_type: 's3_identity',
        destination: { bucket: 'meter-data', prefix: '' },
        format: 'csv',
        time_zone: 'UTC',
        schedule: { at: '02:00' },
      },
    });
  });

  it('keeps what is given', () => {
    const result = readIntegrationCreate({
      ...minimal,
      storage_type: 'gcs_identity',
      destination: { bucket: 'meter.data_2', prefix: 'a/b/' },
      format: 'parquet',
      time_zone: 'Asia/Kathmandu',
      schedule: { at: '23:59' },
    });
    expect(result).toMatchObject({
      ok: true,
      value: { destination: { prefix: 'a/b/' }, format: 'parquet', time_zone: 'Asia/Kathmandu', schedule: { at: '23:59' } },
    });
  });

  it.each([
    [{ ...minimal, type: 'webhook' }, 'type'],
    [{ ...minimal, namespace: '-bad' }, 'namespace'],
    [{ ...minimal, storage_type: 'api_token_identity' }, 'storage_type'],
    [{ ...minimal, destination: { bucket: 'UPPER' } }, 'destination.bucket'],
    [{ ...minimal, destination: { bucket: 'ab' } }, 'destination.bucket'],
    [{ ...minimal, destination: { bucket: 'meter-data', prefix: 'no-slash' } }, 'destination.prefix'],
    [{ ...minimal, destination: { bucket: 'meter-data', prefix: '/abs/' } }, 'destination.prefix'],
    [{ ...minimal, destination: { bucket: 'meter-data', prefix: 'a/../' } }, 'destination.prefix'],
    [{ ...minimal, destination: { bucket: 'meter-data', region: 'x' } }, 'destination.region'],
    [{ ...minimal, destination: 'meter-data' }, 'destination'],
    [{ ...minimal, format: 'xml' }, 'format'],
    [{ ...minimal, time_zone: '+02:00' }, 'time_zone'],
    [{ ...minimal, schedule: { at: '24:00' } }, 'schedule.at'],
    [{ ...minimal, schedule: '02:00' }, 'schedule'],
    [{ ...minimal, status: 'paused' }, 'status'],
    [{ namespace: 'batch' }, 'type'],
    [[], 'body'],
  ])('refuses %j naming %s', (body, field) => {
    const result = readIntegrationCreate(body);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.map((e) => e.field)).toContain(field);
  });

  it('reports every violation at once', () => {
    const result = readIntegrationCreate({ format: 'xml' });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors.map((e) => e.field).sort()).toEqual(['destination', 'format', 'namespace', 'storage_type', 'type']);
  });
});

describe('integrationUpdateBody', () => {
  it('takes only the fields given', () => {
    expect(readIntegrationUpdate({ status: 'paused' })).toEqual({ ok: true, value: { status: 'paused' } });
    expect(readIntegrationUpdate({ schedule: { at: '04:15' }, time_zone: 'Europe/Madrid' })).toEqual({
      ok: true,
      value: { schedule: { at: '04:15' }, time_zone: 'Europe/Madrid' },
    });
  });

  it('refuses fields fixed at activation and unknown ones', () => {
    const result = readIntegrationUpdate({ storage_type: 'gcs_identity', colour: 'red', status: 'stopped' });
    expect(result).toEqual({
      ok: false,
      errors: [
        { field: 'storage_type', message: 'cannot be changed; create another integration' },
        { field: 'colour', message: 'is not a known field' },
        { field: 'status', message: 'must be one of active, paused' },
      ],
    });
  });
});
