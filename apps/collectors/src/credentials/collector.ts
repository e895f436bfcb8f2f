import type { CollectorFormat, CollectorMapping } from '@meter/contracts';

/** A signed-in collector: its credential, whose organization every uplink belongs to. */
export interface Collector {
  credentialId: string;
  orgId: string;
  username: string;
  format: CollectorFormat;
  mapping: CollectorMapping;
}

export type SignIn =
  | { ok: true; collector: Collector }
  | { ok: false; reason: 'bad_credentials' }
  | { ok: false; reason: 'throttled'; retryAfterSeconds: number }
  | { ok: false; reason: 'unavailable' };
