import { credentialType } from '@meter/contracts';
import { z } from 'zod';
import { storableString } from '../common/storable-text';

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
  })
  .meta({ id: 'CreateCredentialRequest' });
export type CreateCredentialRequest = z.infer<typeof createCredentialRequest>;

/** The body of PATCH /org-api-credentials/{id}. */
export const updateCredentialRequest = z
  .strictObject({
    allowed_cidrs: z
      .array(z.string())
      .max(100, 'must hold at most 100 ranges')
      .meta({ description: 'IPv4 and IPv6 CIDRs or single addresses; an empty list allows any address.' }),
  })
  .meta({ id: 'UpdateCredentialRequest' });

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

/** The answer of POST /org-api-credentials: the only one that shows the secret. */
export const createdCredentialSchema = z
  .object({
    id,
    access_key,
    secret_key: z.string().nullable().meta({
      description: 'Shown in this answer only and never again (revoke the credential and create another if it is lost); null for a public credential.',
    }),
    ...granted,
  })
  .meta({ id: 'CreatedCredential' });

export type CreatedCredential = z.output<typeof createdCredentialSchema>;

/** A credential as listed and read: every field but the secret, with its state. */
export const credentialSchema = z
  .object({
    id,
    name: z.string(),
    type: granted.type,
    access_key,
    scopes: granted.scopes,
    allowed_cidrs: granted.allowed_cidrs,
    status: z.enum(['active', 'revoked']),
    created_at: timestamp,
    revoked_at: timestamp.nullable(),
    last_used_at: timestamp.nullable().meta({ description: 'The last accepted gateway request (reported every few seconds); null until the first.' }),
  })
  .meta({ id: 'Credential' });

export type Credential = z.output<typeof credentialSchema>;

export const credentialListSchema = z
  .object({ credentials: z.array(credentialSchema).meta({ description: 'Oldest first, active and revoked.' }) })
  .meta({ id: 'CredentialList' });

export type CredentialList = z.output<typeof credentialListSchema>;

export const availableScopesSchema = z.object({ scopes: z.array(z.string()) }).meta({ id: 'AvailableScopes' });

export type AvailableScopes = z.output<typeof availableScopesSchema>;

export const credentialIdPath = z.object({
  id: z.string().meta({ description: 'The credential id.', param: { example: 'cred_4fQm7yX2bN9pLw3cR8kT1A' } }),
});
