import { z } from 'zod';
import { credentialEvent } from './auth-events';
import type { BusNames } from './bus';

/**
 * A gateway asks auth for a credential its view does not hold yet (created
 * moments ago) or holds an older version of (changed moments ago), on core
 * NATS request/reply. Auth replicas answer in one queue group. The answer is
 * the credential's events, exactly as AUTH_EVENTS carries them (the secret
 * only sealed), so the gateway folds them into its view by version like any
 * other delivery. Only auth may subscribe to the subject (deploy/base/nats).
 */
export const CREDENTIAL_LOOKUP_SUBJECT = 'auth.credentials.lookup';
export const CREDENTIAL_LOOKUP_QUEUE_GROUP = 'auth';

export function credentialLookupSubject(bus: BusNames): string {
  return bus.subject(CREDENTIAL_LOOKUP_SUBJECT);
}

export const credentialLookupRequest = z.object({ access_key: z.string().min(1).max(200) }).strict();

/**
 * `found`: the latest event of each credential event type, in version order
 * (each type replaces what it sets, so folding these gives the current state);
 * `unknown`: auth has no such access key; `unavailable`: auth could not read
 * its database.
 */
export const credentialLookupReply = z.discriminatedUnion('status', [
  z.object({ status: z.literal('found'), events: z.array(credentialEvent).min(1).max(4) }).strict(),
  z.object({ status: z.literal('unknown') }).strict(),
  z.object({ status: z.literal('unavailable') }).strict(),
]);

export type CredentialLookupRequest = z.infer<typeof credentialLookupRequest>;
export type CredentialLookupReply = z.infer<typeof credentialLookupReply>;
