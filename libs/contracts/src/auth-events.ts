import { z } from 'zod';

/**
 * Events the auth service appends to its event table and relays to
 * JetStream on `auth.events.<aggregate>.<name>` with `Nats-Msg-Id` =
 * `event_id`. The gateway builds its credential view from the credential
 * events. Secrets travel only sealed (`@meter/crypto` seal() under the
 * CREDENTIAL_KEYRING, associated data `{org, credential}`).
 * One schema per message: it validates the payload and types the code.
 */
export const CREDENTIAL_SCOPES = ['meter:consumption:read'] as const;
export const credentialScope = z.enum(CREDENTIAL_SCOPES);
export const credentialType = z.enum(['secret', 'public']);

const envelope = <T extends string, P extends z.ZodType>(type: T, payload: P) =>
  z.object({
    event_id: z.uuid(),
    type: z.literal(type),
    aggregate_id: z.string().min(1),
    org_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    /** Version of the aggregate after this event; 1 for the first. */
    version: z.number().int().min(1),
    occurred_at: z.iso.datetime(),
    payload,
  });

export const organizationCreated = envelope(
  'organization.created',
  z.object({ name: z.string().min(1), scopes: z.array(credentialScope) }),
);

export const adminCreated = envelope(
  'admin.created',
  z.object({ admin_id: z.string().min(1), email: z.string().min(3) }),
);

export const credentialCreated = envelope(
  'credential.created',
  z.object({
    credential_id: z.string().min(1),
    name: z.string(),
    type: credentialType,
    access_key: z.string().min(1),
    scopes: z.array(credentialScope),
    allowed_cidrs: z.array(z.string()),
    /** `@meter/crypto` seal() of the secret key; null for public credentials. */
    sealed_secret: z.string().nullable(),
    created_at: z.iso.datetime(),
  }),
);

export const credentialRevoked = envelope(
  'credential.revoked',
  z.object({ credential_id: z.string().min(1), access_key: z.string().min(1), revoked_at: z.iso.datetime() }),
);

export const credentialCidrsChanged = envelope(
  'credential.cidrs_changed',
  z.object({ credential_id: z.string().min(1), access_key: z.string().min(1), allowed_cidrs: z.array(z.string()) }),
);

/** Key rotation re-sealed the secret under the active key; the secret itself did not change. */
export const credentialSecretResealed = envelope(
  'credential.secret_resealed',
  z.object({ credential_id: z.string().min(1), access_key: z.string().min(1), sealed_secret: z.string() }),
);

export const credentialEvent = z.discriminatedUnion('type', [
  credentialCreated,
  credentialRevoked,
  credentialCidrsChanged,
  credentialSecretResealed,
]);
export const authEvent = z.discriminatedUnion('type', [
  organizationCreated,
  adminCreated,
  credentialCreated,
  credentialRevoked,
  credentialCidrsChanged,
  credentialSecretResealed,
]);

export type CredentialEvent = z.infer<typeof credentialEvent>;
export type AuthEvent = z.infer<typeof authEvent>;
export type AuthEventType = AuthEvent['type'];

/** `auth.events.credential.created` for `credential.created`. */
export function authEventSubject(type: AuthEventType): string {
  return `auth.events.${type}`;
}

/** Associated data for a sealed credential secret, shared by auth (seal) and gateway (open). */
export function credentialSecretAad(orgId: string, credentialId: string): Record<string, string> {
  return { org: orgId, credential: credentialId };
}
