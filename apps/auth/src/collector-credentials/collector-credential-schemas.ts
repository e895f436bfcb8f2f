import { collectorFormat, collectorMapping, COLLECTOR_FORMATS } from '@meter/contracts';
import { z } from 'zod';
import { storableString } from '../common/storable-text';

/** The body of POST /collector-credentials. */
export const createCollectorCredentialRequest = z
  .strictObject({
    name: storableString()
      .trim()
      .min(1, 'must not be empty')
      .max(200, 'must be at most 200 characters')
      .meta({ description: 'A label for people, e.g. the receiver’s site.' }),
    format: collectorFormat.meta({ description: `What the collector sends: ${COLLECTOR_FORMATS.join(', ')} (docs/collectors.md).` }),
    mapping: collectorMapping
      .optional()
      .meta({ description: 'chirpstack and ttn: where the decoded payload holds the register, in which unit, and the device’s time.' }),
  })
  .meta({ id: 'CreateCollectorCredentialRequest' });
export type CreateCollectorCredentialRequest = z.output<typeof createCollectorCredentialRequest>;

const timestamp = z.iso.datetime().meta({ description: 'ISO 8601 UTC with milliseconds.' });

const fields = {
  id: z.string().meta({ description: '`ccr_` and 22 characters.' }),
  name: z.string(),
  format: collectorFormat,
  mapping: z
    .object({ value: z.string().optional(), unit: z.string().optional(), time: z.string().optional() })
    .meta({ description: 'As given at creation; empty for the defaults.' }),
  username: z.string().meta({ description: 'The MQTT user name: `col_` and 16 characters.' }),
  created_at: timestamp,
};

/** The answer of POST /collector-credentials: the only one that shows the password. */
export const createdCollectorCredentialSchema = z
  .object({
    ...fields,
    password: z.string().meta({
      description:
        'The MQTT password and HTTP bearer token (`<username>.<secret>`). Shown in this answer only and never again: revoke the credential and create another if it is lost.',
    }),
  })
  .meta({ id: 'CreatedCollectorCredential' });
export type CreatedCollectorCredential = z.output<typeof createdCollectorCredentialSchema>;

export const collectorCredentialSchema = z
  .object({ ...fields, status: z.enum(['active', 'revoked']), revoked_at: timestamp.nullable() })
  .meta({ id: 'CollectorCredential' });
export type CollectorCredential = z.output<typeof collectorCredentialSchema>;

export const collectorCredentialListSchema = z
  .object({ collector_credentials: z.array(collectorCredentialSchema).meta({ description: 'Oldest first, active and revoked.' }) })
  .meta({ id: 'CollectorCredentialList' });

export const unmatchedUplinkListSchema = z
  .object({
    unmatched: z
      .array(
        z.object({
          radio_id_kind: z.enum(['dev_eui', 'wmbus_id']),
          radio_id: z.string().meta({ description: 'The DevEUI (16 hex digits, lower case) or the wM-Bus id (8 digits) of the uplinks.' }),
          first_seen: timestamp,
          last_seen: timestamp,
          count: z.int().min(1).meta({ description: 'Uplinks dead-lettered as unknown_device for this id.' }),
        }),
      )
      .meta({ description: 'The latest 100 radio ids that match no device of the organization, latest first; an id registered since is left out.' }),
  })
  .meta({ id: 'UnmatchedUplinkList' });
export type UnmatchedUplinkList = z.output<typeof unmatchedUplinkListSchema>;

export const collectorCredentialIdPath = z.object({
  id: z.string().meta({ description: 'The collector credential id.', param: { example: 'ccr_9sKd2LmQ7xVb4Rt1Nc8PzA' } }),
});
