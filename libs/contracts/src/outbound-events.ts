import { z } from 'zod';
import { orgIdSchema } from './ids';

/**
 * Events the platform pushes to integrators through webhooks (docs, "Alerts
 * and webhooks"). Producers (ingest for alerts, integrations for exports)
 * append them to an outbox in the transaction that makes them true and relay
 * them to the OUTBOUND_EVENTS stream on `events.<org_id>.<type>` with
 * `Nats-Msg-Id` = `event_id`; the integrations process fans each out to the
 * organization's webhook endpoints. `event_id` is the `webhook-id` of every
 * delivery attempt.
 */
export const OUTBOUND_EVENT_TYPES = ['alert.raised', 'alert.cleared', 'export.succeeded', 'export.failed'] as const;
export const outboundEventType = z.enum(OUTBOUND_EVENT_TYPES);
export type OutboundEventType = z.infer<typeof outboundEventType>;

export const outboundEvent = z.object({
  event_id: z.uuid(),
  type: outboundEventType,
  org_id: orgIdSchema,
  /** When it became true, RFC 3339 UTC: the webhook body's `timestamp`. */
  occurred_at: z.iso.datetime(),
  /** The alert episode or the export run, as the API shows it. */
  data: z.record(z.string(), z.unknown()),
});
export type OutboundEvent = z.infer<typeof outboundEvent>;

/** `events.<org_id>.<type>`, e.g. `events.acme.alert.raised` (add the bus prefix with BusNames.subject). */
export function outboundEventSubject(orgId: string, type: OutboundEventType): string {
  return `events.${orgId}.${type}`;
}
