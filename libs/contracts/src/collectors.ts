import { z } from 'zod';
import { orgIdSchema } from './ids';
import type { BusNames } from './bus';
import { unitSchema } from './readings';

/**
 * Collectors (docs/collectors.md): the formats a collector credential speaks,
 * its mapping of decoded payload fields, and how the collectors process asks
 * auth for a credential. One schema per message, shared by auth and collectors.
 */
export const COLLECTOR_FORMATS = ['native', 'wmbusmeters', 'chirpstack', 'ttn'] as const;
export const collectorFormat = z.enum(COLLECTOR_FORMATS);
export type CollectorFormat = z.infer<typeof collectorFormat>;

/** An RFC 6901 JSON pointer: empty (the whole document) or `/`-separated reference tokens. */
export const JSON_POINTER = /^(\/([^~/]|~[01])*)*$/;
const jsonPointer = z.string().max(200).regex(JSON_POINTER, 'must be a JSON pointer (RFC 6901) such as /volume');

/** Where chirpstack and ttn uplinks carry the register in their decoded payload, and in which unit. */
export const collectorMapping = z
  .strictObject({
    value: jsonPointer.optional().meta({ description: 'JSON pointer into the decoded payload; default `/volume`.' }),
    unit: unitSchema.optional().meta({ description: 'Unit of that value (`m³`, `L`, `gal`, `ft³`, `CCF`); default `m³`.' }),
    time: jsonPointer.optional().meta({ description: "JSON pointer to the device's own RFC 3339 time in the decoded payload; default `/time`." }),
  })
  .meta({ id: 'CollectorMapping' });
export type CollectorMapping = z.output<typeof collectorMapping>;

export const DEFAULT_VALUE_POINTER = '/volume';
export const DEFAULT_TIME_POINTER = '/time';

/**
 * Usernames are `col_` and 16 lowercase base32 characters; the password
 * starts with its username (`<username>.<secret>`), so an HTTP uplink that
 * sends only the password names its credential.
 */
export const COLLECTOR_USERNAME = /^col_[a-z2-7]{16}$/;
export const COLLECTOR_CREDENTIAL_ID = /^ccr_[A-Za-z0-9_-]{22}$/;

/** The username a password names, or undefined when it is not one of ours. */
export function usernameOfPassword(password: string): string | undefined {
  const dot = password.indexOf('.');
  const username = dot > 0 ? password.slice(0, dot) : '';
  return COLLECTOR_USERNAME.test(username) ? username : undefined;
}

/**
 * `auth.collectors.lookup`: collectors ask auth for a credential by username
 * and verify the password themselves against its Argon2id hash, so the
 * password never leaves the collectors process. Only auth answers (queue
 * group `auth`); only the collectors user may ask (deploy/base/nats).
 */
export const COLLECTOR_LOOKUP_SUBJECT = 'auth.collectors.lookup';
export function collectorLookupSubject(bus: BusNames): string {
  return bus.subject(COLLECTOR_LOOKUP_SUBJECT);
}

export const collectorLookupRequest = z.strictObject({ username: z.string().regex(COLLECTOR_USERNAME) });
export type CollectorLookupRequest = z.infer<typeof collectorLookupRequest>;

export const collectorCredentialRecord = z.strictObject({
  id: z.string().regex(COLLECTOR_CREDENTIAL_ID),
  org_id: orgIdSchema,
  username: z.string().regex(COLLECTOR_USERNAME),
  format: collectorFormat,
  mapping: collectorMapping,
  /** Argon2id, `$argon2id$v=19$...` */
  password_hash: z.string().min(1),
});
export type CollectorCredentialRecord = z.infer<typeof collectorCredentialRecord>;

/** `found` only for an active credential; a revoked or absent one is `unknown`. */
export const collectorLookupReply = z.discriminatedUnion('status', [
  z.strictObject({ status: z.literal('found'), credential: collectorCredentialRecord }),
  z.strictObject({ status: z.literal('unknown') }),
  z.strictObject({ status: z.literal('unavailable') }),
]);
export type CollectorLookupReply = z.infer<typeof collectorLookupReply>;

/** The auth event subject collectors follow to drop a revoked credential and close its connections at once. */
export const COLLECTOR_REVOKED_EVENT_SUBJECT = 'auth.events.collector_credential.revoked';

/** Headers of an uplink collectors dead-letter on `meter.deadletter.uplinks` (beside DEAD_LETTER_HEADERS.reason). */
export const UPLINK_DEAD_LETTER_HEADERS = {
  collector: 'Meter-Collector-Id',
  org: 'Meter-Org-Id',
  radioId: 'Meter-Radio-Id',
  topic: 'Meter-Uplink-Topic',
} as const;
