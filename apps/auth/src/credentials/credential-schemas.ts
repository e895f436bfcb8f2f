import { credentialType } from '@meter/contracts';
import { z } from 'zod';
import { storableString } from '../common/storable-text';

/** Spec 2.1. Scopes are checked against the organization's afterwards, so each bad one is named. */
export const createCredentialRequest = z.strictObject({
  name: storableString().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  type: credentialType,
  scopes: z.array(z.string().max(100)).min(1, 'must name at least one scope').max(20),
});
export type CreateCredentialRequest = z.infer<typeof createCredentialRequest>;

export const updateCredentialRequest = z.strictObject({
  allowed_cidrs: z.array(z.string()).max(100, 'must hold at most 100 ranges'),
});
