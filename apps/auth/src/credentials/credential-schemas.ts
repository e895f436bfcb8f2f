import { credentialType } from '@meter/contracts';
import { z } from 'zod';
import { storableString } from '../common/storable-text';

/** The largest `device_ids` list a credential may carry. */
export const MAX_CREDENTIAL_DEVICES = 1000;

/** The limits a credential may carry (contract section 13), optional at creation and in a change. */
function limitFields() {
  return {
    expires_at: z.iso
      .datetime({ offset: true })
      .nullable()
      .optional()
      .meta({ description: 'ISO 8601 with `Z` or an offset; after it the gateway answers 401 `credential_expired`. null: never expires (the default).' }),
    allowed_origins: z
      .array(z.string())
      .max(100, 'must hold at most 100 origins')
      .optional()
      .meta({
        description:
          'Exact origins (`https://portal.example.org`) browsers may call the gateway from with this credential: a request with another `Origin` ' +
          'is refused (403 `origin_not_allowed`) and CORS answers only these. Empty (the default): no browser origin is served.',
      }),
    device_ids: z
      .array(z.int().min(1).max(Number.MAX_SAFE_INTEGER))
      .min(1, 'must list at least one device; null removes the limit')
      .max(MAX_CREDENTIAL_DEVICES, `must list at most ${MAX_CREDENTIAL_DEVICES} devices`)
      .nullable()
      .optional()
      .meta({
        description:
          'The only devices the credential sees: any other answers as an unknown device (404, `NOT_FOUND` in bulk and dashboard results, absent from lists). ' +
          'null (the default): every device of the organization.',
      }),
  };
}

/** The body of POST /org-api-credentials. Scopes are checked against the organization's afterwards, so each bad one is named. */
export const createCredentialRequest = z
  .strictObject({
    name: storableString().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters').meta({ description: 'A label for people.' }),
    type: credentialType.meta({ description: '`secret` signs with HMAC-SHA256; `public` sends `signature=public` and gets no secret.' }),
    scopes: z
      .array(z.string().max(100))
      .min(1, 'must name at least one scope')
      .max(20)
      .meta({ description: 'Scopes of GET /org-api-credentials/available-scopes.' }),
    ...limitFields(),
  })
  .meta({ id: 'CreateCredentialRequest' });
export type CreateCredentialRequest = z.infer<typeof createCredentialRequest>;

/** The body of PATCH /org-api-credentials/{id}: any of these fields; those absent do not change. */
export const updateCredentialRequest = z
  .strictObject({
    name: createCredentialRequest.shape.name.optional(),
    allowed_cidrs: z
      .array(z.string())
      .max(100, 'must hold at most 100 ranges')
      .optional()
      .meta({ description: 'IPv4 and IPv6 CIDRs or single addresses; an empty list allows any address.' }),
    ...limitFields(),
  })
  .refine((body) => Object.keys(body).length > 0, 'must name at least one field to change')
  .meta({ id: 'UpdateCredentialRequest' });
export type UpdateCredentialRequest = z.infer<typeof updateCredentialRequest>;

const timestamp = z.iso.datetime().meta({ description: 'ISO 8601 UTC with milliseconds.' });

/** Fields every view of a credential has, in the order the API sends them. */
const { id, access_key, ...granted } = {
  id: z.string().meta({ description: '`cred_` and 22 characters.' }),
  access_key: z
    .string()
    .regex(/^(sk|pk)_live_[A-Za-z0-9_-]+$/)
    .meta({ description: '`sk_live_...` for secret credentials, `pk_live_...` for public ones.' }),
  type: credentialType,
  scopes: z.array(z.string()),
  allowed_cidrs: z.array(z.string()).meta({ description: 'IPv4/IPv6 CIDR ranges; empty allows any address.' }),
  created_at: timestamp,
};

/** A credential as listed and read: every field but the secret, with its state. */
export const credentialSchema = z
  .object({
    id,
    name: z.string(),
    type: granted.type,
    access_key,
    scopes: granted.scopes,
    allowed_cidrs: granted.allowed_cidrs,
    allowed_origins: z.array(z.string()).meta({ description: 'Browser origins the gateway serves this credential to; empty: none.' }),
    device_ids: z.array(z.int()).nullable().meta({ description: 'The only devices the credential sees, ascending; null: every device of the organization.' }),
    expires_at: timestamp.nullable().meta({ description: 'After it the gateway answers 401 `credential_expired`; null: never.' }),
    status: z.enum(['active', 'revoked']).meta({ description: '`revoked` once revoked; a credential past `expires_at` stays `active` but is refused.' }),
    created_at: timestamp,
    revoked_at: timestamp.nullable(),
    last_used_at: timestamp.nullable().meta({ description: 'The last accepted gateway request (reported every few seconds); null until the first.' }),
  })
  .meta({ id: 'Credential' });

export type Credential = z.output<typeof credentialSchema>;

/** The answer of POST /org-api-credentials: every field of the list, plus the secret, shown only here. */
export const createdCredentialSchema = credentialSchema
  .extend({
    secret_key: z.string().nullable().meta({
      description: 'Shown in this answer only and never again (revoke the credential and create another if it is lost); null for a public credential.',
    }),
  })
  .meta({ id: 'CreatedCredential' });

export type CreatedCredential = z.output<typeof createdCredentialSchema>;

export const credentialListSchema = z
  .object({ credentials: z.array(credentialSchema).meta({ description: 'Oldest first, active and revoked.' }) })
  .meta({ id: 'CredentialList' });

export type CredentialList = z.output<typeof credentialListSchema>;

export const availableScopesSchema = z.object({ scopes: z.array(z.string()) }).meta({ id: 'AvailableScopes' });

export type AvailableScopes = z.output<typeof availableScopesSchema>;

export const credentialIdPath = z.object({
  id: z.string().meta({ description: 'The credential id.', param: { example: 'cred_4fQm7yX2bN9pLw3cR8kT1A' } }),
});
