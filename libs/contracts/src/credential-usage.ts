import { z } from 'zod';
import type { BusNames } from './bus';

/**
 * Gateways report which credentials they accepted requests from, batched,
 * on core NATS (usage is telemetry: a report lost in a crash costs at most
 * one interval of `last_used_at` precision, never a request). Every auth
 * replica subscribes in one queue group, so each report is applied once.
 */
export const CREDENTIAL_USAGE_SUBJECT = 'meter.gateway.credential-usage';
export const CREDENTIAL_USAGE_QUEUE_GROUP = 'auth';
/** At most this many credentials per report; a gateway sends several when it saw more. */
export const CREDENTIAL_USAGE_MAX_ITEMS = 1000;

export function credentialUsageSubject(bus: BusNames): string {
  return bus.subject(CREDENTIAL_USAGE_SUBJECT);
}

/** One message: the latest accepted request per credential since the gateway's last report. */
export const credentialUsageReport = z
  .object({
    usage: z
      .array(
        z
          .object({
            credential_id: z.string().min(1).max(64),
            org_id: z.string().min(1).max(64),
            last_used_at: z.iso.datetime({ offset: false }),
          })
          .strict(),
      )
      .min(1)
      .max(CREDENTIAL_USAGE_MAX_ITEMS),
  })
  .strict();

export type CredentialUsageReport = z.infer<typeof credentialUsageReport>;
