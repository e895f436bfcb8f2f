import { z } from 'zod';
import { orgIdSchema } from './ids';

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
export type CredentialScope = z.infer<typeof credentialScope>;
export const credentialType = z.enum(['secret', 'public']);

const envelope = <T extends string, P extends z.ZodType>(type: T, payload: P) =>
  z.object({
    event_id: z.uuid(),
    type: z.literal(type),
    aggregate_id: z.string().min(1),
    org_id: orgIdSchema,
    /** Version of the aggregate after this event; 1 for the first. */
    version: z.number().int().min(1),
    occurred_at: z.iso.datetime(),
    payload,
  });

export const organizationCreated = envelope('organization.created', z.object({ name: z.string().min(1), scopes: z.array(credentialScope) }));

export const adminCreated = envelope('admin.created', z.object({ admin_id: z.string().min(1), email: z.string().min(3) }));

/** The admin's password hash was replaced by one made with the current Argon2id limits (the hash is never in an event). */
export const adminPasswordRehashed = envelope('admin.password_rehashed', z.object({ admin_id: z.string().min(1) }));

/** The admin may no longer log in; their sessions end with `session.ended` events. */
export const adminDeactivated = envelope('admin.deactivated', z.object({ admin_id: z.string().min(1) }));

/** An admin logged in. The token is never in an event (the state table keeps only its SHA-256). */
export const sessionStarted = envelope(
  'session.started',
  z.object({ session_id: z.string().min(1), admin_id: z.string().min(1), expires_at: z.iso.datetime() }),
);

/** A session ended before it expired (expiry itself is not an event). */
export const sessionEnded = envelope(
  'session.ended',
  z.object({ session_id: z.string().min(1), admin_id: z.string().min(1), reason: z.enum(['logout', 'admin_deactivated']) }),
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
    /** The limits of credentialSettingsChanged; absent in events older than them (no limit). */
    ...credentialLimits().partial().shape,
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

/**
 * What an admin may change on a credential besides its CIDRs: every field
 * with its value after the change (the latest such event is the state).
 */
export const credentialSettingsChanged = envelope(
  'credential.settings_changed',
  z.object({ credential_id: z.string().min(1), access_key: z.string().min(1), name: z.string(), ...credentialLimits().shape }),
);

/** A credential's limits: expiry (null: never), browser origins (empty: any), devices (null: every device). */
function credentialLimits() {
  return z.object({
    expires_at: z.iso.datetime({ offset: true }).nullable(),
    allowed_origins: z.array(z.string()),
    device_ids: z.array(z.number().int().positive()).nullable(),
  });
}

/** Key rotation re-sealed the secret under the active key; the secret itself did not change. */
export const credentialSecretResealed = envelope(
  'credential.secret_resealed',
  z.object({ credential_id: z.string().min(1), access_key: z.string().min(1), sealed_secret: z.string() }),
);

/** A collector credential (docs/collectors.md); its password hash is never in an event. */
export const collectorCredentialCreated = envelope(
  'collector_credential.created',
  z.object({
    credential_id: z.string().min(1),
    name: z.string(),
    format: z.enum(['native', 'wmbusmeters', 'chirpstack', 'ttn']),
    username: z.string().min(1),
    created_at: z.iso.datetime(),
  }),
);

/** Collectors drop the credential and close its connections when they see this. */
export const collectorCredentialRevoked = envelope(
  'collector_credential.revoked',
  z.object({ credential_id: z.string().min(1), username: z.string().min(1), revoked_at: z.iso.datetime() }),
);

export const credentialEvent = z.discriminatedUnion('type', [
  credentialCreated,
  credentialRevoked,
  credentialCidrsChanged,
  credentialSettingsChanged,
  credentialSecretResealed,
]);
export const authEvent = z.discriminatedUnion('type', [
  organizationCreated,
  adminCreated,
  adminPasswordRehashed,
  adminDeactivated,
  sessionStarted,
  sessionEnded,
  credentialCreated,
  credentialRevoked,
  credentialCidrsChanged,
  credentialSettingsChanged,
  credentialSecretResealed,
  collectorCredentialCreated,
  collectorCredentialRevoked,
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
