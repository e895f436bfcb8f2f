import type { OutboundEventType, WebhookDeliveryType, WebhookDeliveryView, WebhookEndpointView } from '@meter/contracts';

/** `webhook_endpoints` as the handlers read it. */
export interface EndpointRow {
  id: string;
  org_id: string;
  url: string;
  events: OutboundEventType[];
  description: string | null;
  status: 'enabled' | 'disabled';
  disabled_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

export const ENDPOINT_COLUMNS = 'id, org_id, url, events, description, status, disabled_reason, created_at, updated_at';

export const endpointView = (r: EndpointRow): WebhookEndpointView => ({
  id: r.id,
  url: r.url,
  events: r.events,
  description: r.description,
  status: r.status,
  disabled_reason: r.disabled_reason,
  created_at: r.created_at.toISOString(),
  updated_at: r.updated_at.toISOString(),
});

/** `webhook_deliveries` as listed. */
export interface DeliveryRow {
  id: string;
  event_id: string;
  type: WebhookDeliveryType;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  created_at: Date;
  last_attempt_at: Date | null;
  last_response_body: string | null;
  /** the event's body, as every attempt sends it */
  payload: string;
}

/** A DeliveryRow's columns, from deliveries `d` joined with their events `ev`. */
export const DELIVERY_COLUMNS = `d.id, d.event_id, d.type, d.status, d.attempts, d.last_status_code, d.last_error, d.next_attempt_at, d.created_at,
  d.last_attempt_at, d.last_response_body, ev.body AS payload`;

export const deliveryView = (r: DeliveryRow): WebhookDeliveryView => ({
  id: r.id,
  event_id: r.event_id,
  type: r.type,
  status: r.status,
  attempts: r.attempts,
  last_status_code: r.last_status_code,
  last_error: r.last_error,
  next_attempt_at: r.next_attempt_at?.toISOString() ?? null,
  created_at: r.created_at.toISOString(),
  last_attempt_at: r.last_attempt_at?.toISOString() ?? null,
  payload: r.payload,
  response_body: r.last_response_body,
});
