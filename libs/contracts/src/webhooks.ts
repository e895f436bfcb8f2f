import { z } from 'zod';
import { integrationsCaller, integrationsReply } from './integrations';
import { OUTBOUND_EVENT_TYPES } from './outbound-events';

/**
 * Webhook endpoints (management API `/webhook-endpoints`, forwarded by auth
 * to the integrations process over `integrations.rpc.webhook.<operation>`).
 * One schema per request and per answer; auth validates bodies with the
 * same schemas before it forwards them.
 */
export const WEBHOOK_OPERATIONS = {
  create: 'webhook.create',
  list: 'webhook.list',
  update: 'webhook.update',
  delete: 'webhook.delete',
  rotateSecret: 'webhook.rotate-secret',
  deliveries: 'webhook.deliveries',
  retry: 'webhook.retry',
  test: 'webhook.test',
} as const;

/** The event `POST /webhook-endpoints/{id}/test` sends to that endpoint alone; no endpoint subscribes to it. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
/** What a delivery carries: a subscribed event, or the test event. */
export const WEBHOOK_DELIVERY_TYPES = [...OUTBOUND_EVENT_TYPES, WEBHOOK_TEST_EVENT] as const;
export type WebhookDeliveryType = (typeof WEBHOOK_DELIVERY_TYPES)[number];

/** The receiver's answer a delivery keeps: its first KiB. */
export const WEBHOOK_RESPONSE_BODY_BYTES = 1024;

/** `whsec_` and the base64 of 32 random bytes (Standard Webhooks). */
export const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

const events = z
  .array(z.enum(OUTBOUND_EVENT_TYPES))
  .min(1, 'must name at least one event')
  .max(OUTBOUND_EVENT_TYPES.length)
  .refine((list) => new Set(list).size === list.length, 'must not repeat an event')
  .meta({ description: 'The events delivered to this endpoint.' });

const url = z.string().min(1).max(2000).meta({
  description: 'Where deliveries are POSTed: https, or http to a loopback or private address where the platform allows it (development).',
  format: 'uri',
});

/** The body of POST /webhook-endpoints. */
export const createWebhookEndpointRequest = z
  .strictObject({ url, events, description: z.string().trim().max(500).optional().meta({ description: 'A note for people.' }) })
  .meta({ id: 'CreateWebhookEndpointRequest' });

/** The body of PATCH /webhook-endpoints/{id}: any of the fields. */
export const updateWebhookEndpointRequest = z
  .strictObject({
    url: url.optional(),
    events: events.optional(),
    status: z.enum(['enabled', 'disabled']).optional().meta({ description: 'A disabled endpoint gets no deliveries; enabling it resumes its pending ones.' }),
    description: z.string().trim().max(500).optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'must change at least one field')
  .meta({ id: 'UpdateWebhookEndpointRequest' });

const timestamp = z.iso.datetime().meta({ description: 'ISO 8601 UTC with milliseconds.' });

export const webhookEndpoint = z
  .object({
    id: z.uuid(),
    url: z.string(),
    events: z.array(z.enum(OUTBOUND_EVENT_TYPES)),
    description: z.string().nullable(),
    status: z.enum(['enabled', 'disabled']).meta({ description: 'disabled by an admin, or by the receiver answering 410 Gone.' }),
    disabled_reason: z.string().nullable().meta({ description: 'Why the platform disabled it (a 410 answer); null otherwise.' }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpointView = z.output<typeof webhookEndpoint>;

const secret = z.string().regex(WEBHOOK_SECRET).meta({
  description: 'The signing secret, `whsec_` + base64 of 32 bytes. Shown in this answer only; keep it where the receiver verifies signatures.',
});

export const createdWebhookEndpoint = webhookEndpoint.extend({ secret }).meta({ id: 'CreatedWebhookEndpoint' });
export const webhookEndpointList = z.object({ endpoints: z.array(webhookEndpoint) }).meta({ id: 'WebhookEndpointList' });
export const rotatedWebhookSecret = z
  .object({
    secret,
    previous_secret_expires_at: timestamp.meta({ description: 'Until then deliveries carry a signature with the previous secret too.' }),
  })
  .meta({ id: 'RotatedWebhookSecret' });

export const webhookDelivery = z
  .object({
    id: z.uuid(),
    event_id: z.uuid().meta({ description: 'The `webhook-id` header of every attempt.' }),
    type: z.enum(WEBHOOK_DELIVERY_TYPES).meta({ description: 'The event delivered; `webhook.test` for a test event.' }),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.int().min(0),
    last_status_code: z.int().nullable().meta({ description: "The receiver's last HTTP status; null before the first answer or when none came." }),
    last_error: z.string().nullable().meta({ description: 'Why the last attempt failed when no HTTP status says it (timeout, refused address, ...).' }),
    next_attempt_at: timestamp.nullable().meta({ description: 'When the next attempt is due; null once delivered or failed.' }),
    created_at: timestamp,
    last_attempt_at: timestamp.nullable(),
    payload: z.string().meta({ description: 'The body every attempt POSTs, byte for byte (`{type, timestamp, data}`): what the signature covers.' }),
    response_body: z
      .string()
      .nullable()
      .meta({ description: "The first 1 KiB of the receiver's last answer (UTF-8); null before the first answer or when none came." }),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDeliveryView = z.output<typeof webhookDelivery>;
export const webhookDeliveryList = z
  .object({ deliveries: z.array(webhookDelivery).meta({ description: 'Newest first, at most 100.' }) })
  .meta({ id: 'WebhookDeliveryList' });

const endpointId = z.object({ endpoint_id: z.string().max(100) });

/** The requests auth forwards: the caller, then the operation's fields. */
export const webhookRequests = {
  create: integrationsCaller.extend({ endpoint: createWebhookEndpointRequest }),
  list: integrationsCaller,
  update: integrationsCaller.extend(endpointId.shape).extend({ changes: updateWebhookEndpointRequest }),
  delete: integrationsCaller.extend(endpointId.shape),
  rotateSecret: integrationsCaller.extend(endpointId.shape),
  deliveries: integrationsCaller.extend(endpointId.shape),
  retry: integrationsCaller.extend(endpointId.shape).extend({ delivery_id: z.string().max(100) }),
  test: integrationsCaller.extend(endpointId.shape),
};

export const webhookReplies = {
  create: integrationsReply(createdWebhookEndpoint),
  list: integrationsReply(webhookEndpointList),
  update: integrationsReply(webhookEndpoint),
  delete: integrationsReply(z.object({ deleted: z.literal(true) })),
  rotateSecret: integrationsReply(rotatedWebhookSecret),
  deliveries: integrationsReply(webhookDeliveryList),
  retry: integrationsReply(webhookDelivery),
  test: integrationsReply(webhookDelivery),
};
