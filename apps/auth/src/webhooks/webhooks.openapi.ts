import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import {
  createdWebhookEndpoint,
  createWebhookEndpointRequest,
  rotatedWebhookSecret,
  updateWebhookEndpointRequest,
  webhookDelivery,
  webhookDeliveryList,
  webhookEndpoint,
  webhookEndpointList,
  type WebhookDeliveryView,
  type WebhookEndpointView,
} from '@meter/contracts';
import { Documented, jsonBody, jsonResponse, noContent, problemResponse, problemThrownBy, RETRY_AFTER_HEADER } from '@meter/http';
import { parseBody } from '../common/parse-body';
import { INTEGRATIONS_SERVICE_FAILURES } from '../integrations/integrations-failures.openapi';
import { integrationsProblem, integrationsUnavailable } from '../integrations/integrations-problem';

const ENDPOINT_ID = '3d6f0a2c-8b41-4e7a-9c55-1f2e3d4c5b6a';
const SECRET = 'whsec_EXAMPLEbWVudGlvbnNlY3JldGtleTMyYnl0ZXMhIQab=';
const ENDPOINT: WebhookEndpointView = {
  id: ENDPOINT_ID,
  url: 'https://hooks.riverside-water.example/meter',
  events: ['alert.raised', 'alert.cleared'],
  description: 'Leak desk',
  status: 'enabled',
  disabled_reason: null,
  created_at: '2026-11-21T09:40:12.511Z',
  updated_at: '2026-11-21T09:40:12.511Z',
};
const DELIVERY: WebhookDeliveryView = {
  id: '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d',
  event_id: 'c2f1e0d9-8b7a-4c6d-9e5f-4a3b2c1d0e9f',
  type: 'alert.raised',
  status: 'pending',
  attempts: 2,
  last_status_code: 503,
  last_error: 'the receiver answered 503',
  next_attempt_at: '2026-11-21T10:22:31.000Z',
  created_at: '2026-11-21T10:17:25.904Z',
  last_attempt_at: '2026-11-21T10:17:31.002Z',
  payload:
    '{"type":"alert.raised","timestamp":"2026-11-21T10:17:25.000Z","data":{"id":"5b0d3c8e-2f4a-4e61-9b7c-3d2e1f0a9b8c","device_id":1042,' +
    '"channel":1,"code":"LEAK","state":"open","raised_at":"2026-11-21T10:17:25.000Z","cleared_at":null,"message":"Water ran through every hour of the last 24 hours"}}',
  response_body: 'upstream connect error: service unavailable',
};

const endpointIdPath = z.object({ id: z.uuid().meta({ description: 'The endpoint id.', param: { example: ENDPOINT_ID } }) });
const deliveryPath = endpointIdPath.extend({ deliveryId: z.uuid().meta({ description: 'The delivery id.', param: { example: DELIVERY.id } }) });

/** What a webhook route answers when the integrations service fails it (IntegrationsClient). */
const INTEGRATIONS_FAILURES: Record<number, ResponseConfig> = {
  ...INTEGRATIONS_SERVICE_FAILURES,
  503: problemResponse(
    '`integrations_unavailable`: the integrations service did not answer in time; nothing was changed. Honour Retry-After.',
    { integrations_unavailable: { summary: 'No integrations replica answers', problem: integrationsUnavailable() } },
    RETRY_AFTER_HEADER,
  ),
};

const UNKNOWN_ENDPOINT = problemResponse('`not_found`: the organization has no webhook endpoint with this id.', {
  not_found: {
    summary: 'An id of no endpoint of this organization',
    problem: integrationsProblem({ code: 'not_found', detail: 'no webhook endpoint with this id in the organization' }),
  },
});

const urlRefused = (message: string) => integrationsProblem({ code: 'validation_failed', detail: `url: ${message}`, errors: [{ field: 'url', message }] });

export const ApiCreateWebhookEndpoint = () =>
  Documented({
    summary: 'Create a webhook endpoint',
    description:
      'Deliveries of the chosen events are POSTed to `url`, signed per Standard Webhooks 1.0 with the returned `secret` (shown only in this answer). ' +
      'The URL must be https; production refuses loopback and private addresses, resolved names included.',
    request: {
      body: jsonBody('The endpoint.', createWebhookEndpointRequest, {
        alerts: { summary: 'Alerts to the leak desk', value: { url: ENDPOINT.url, events: ['alert.raised', 'alert.cleared'], description: 'Leak desk' } },
      }),
    },
    responses: {
      201: jsonResponse('The endpoint and its secret.', createdWebhookEndpoint, {
        created: { summary: 'A new endpoint', value: { ...ENDPOINT, secret: SECRET } },
      }),
      400: problemResponse('`validation_failed`: `errors` names each field (`url`, `events`, `description`).', {
        events: {
          summary: 'An unknown event',
          problem: problemThrownBy(() => parseBody(createWebhookEndpointRequest, { url: ENDPOINT.url, events: ['alert.opened'] })),
        },
        private_address: {
          summary: 'A private address in production',
          problem: urlRefused('must not point at this address: 10.0.0.7 is a loopback, private or reserved address'),
        },
      }),
      ...INTEGRATIONS_FAILURES,
    },
  });

export const ApiListWebhookEndpoints = () =>
  Documented({
    summary: "List the organization's webhook endpoints",
    description: 'Every endpoint, oldest first, without secrets.',
    responses: {
      200: jsonResponse('The endpoints.', webhookEndpointList, {
        two: {
          summary: 'One enabled, one disabled by a 410 answer',
          value: {
            endpoints: [
              ENDPOINT,
              {
                ...ENDPOINT,
                id: '5e4d3c2b-1a09-4f8e-8d7c-6b5a4f3e2d1c',
                url: 'https://old.example/hook',
                events: ['export.succeeded', 'export.failed'],
                description: null,
                status: 'disabled',
                disabled_reason: 'the receiver answered 410 Gone at 2026-11-20T03:00:04Z',
              },
            ],
          },
        },
      }),
      ...INTEGRATIONS_FAILURES,
    },
  });

export const ApiUpdateWebhookEndpoint = () =>
  Documented({
    summary: 'Change a webhook endpoint',
    description: 'Changes `url`, `events`, `description` or `status`; enabling a disabled endpoint resumes its pending deliveries.',
    request: {
      params: endpointIdPath,
      body: jsonBody('The fields to change.', updateWebhookEndpointRequest, { enable: { summary: 'Enable it again', value: { status: 'enabled' } } }),
    },
    responses: {
      200: jsonResponse('The endpoint.', webhookEndpoint, { enabled: { summary: 'Enabled', value: { ...ENDPOINT, updated_at: '2026-11-21T11:02:40.120Z' } } }),
      400: problemResponse('`validation_failed`: `errors` names each field.', {
        nothing: { summary: 'An empty body', problem: problemThrownBy(() => parseBody(updateWebhookEndpointRequest, {})) },
        http: { summary: 'Plain http in production', problem: urlRefused('must be https') },
      }),
      404: UNKNOWN_ENDPOINT,
      ...INTEGRATIONS_FAILURES,
    },
  });

export const ApiDeleteWebhookEndpoint = () =>
  Documented({
    summary: 'Delete a webhook endpoint',
    description: 'The endpoint, its secret and its deliveries are removed.',
    request: { params: endpointIdPath },
    responses: { 204: noContent('Deleted.'), 404: UNKNOWN_ENDPOINT, ...INTEGRATIONS_FAILURES },
  });

export const ApiRotateWebhookSecret = () =>
  Documented({
    summary: "Rotate a webhook endpoint's secret",
    description: 'A new secret, shown only in this answer. For 24 hours every delivery is signed with both, so receivers can switch without losing one.',
    request: { params: endpointIdPath },
    responses: {
      200: jsonResponse('The new secret.', rotatedWebhookSecret, {
        rotated: { summary: 'A new secret', value: { secret: SECRET, previous_secret_expires_at: '2026-11-22T10:05:00.000Z' } },
      }),
      404: UNKNOWN_ENDPOINT,
      ...INTEGRATIONS_FAILURES,
    },
  });

export const ApiListWebhookDeliveries = () =>
  Documented({
    summary: "A webhook endpoint's deliveries",
    description: 'The latest 100 deliveries, newest first: status, attempts, the payload sent and the first 1 KiB of the last answer.',
    request: { params: endpointIdPath },
    responses: {
      200: jsonResponse('The deliveries.', webhookDeliveryList, {
        log: {
          summary: 'One retrying, one delivered',
          value: {
            deliveries: [
              DELIVERY,
              {
                ...DELIVERY,
                id: '1f2e3d4c-5b6a-4978-8a9b-0c1d2e3f4a5b',
                event_id: '7e6d5c4b-3a29-4187-9f6e-5d4c3b2a1f0e',
                type: 'alert.cleared',
                status: 'delivered',
                attempts: 1,
                last_status_code: 204,
                last_error: null,
                next_attempt_at: null,
                response_body: '',
              },
            ],
          },
        },
      }),
      404: UNKNOWN_ENDPOINT,
      ...INTEGRATIONS_FAILURES,
    },
  });

export const ApiRetryWebhookDelivery = () =>
  Documented({
    summary: 'Retry a webhook delivery',
    description: 'Attempts the delivery again now, with the same `webhook-id`: a pending one at once, a failed or delivered one once more.',
    request: { params: deliveryPath },
    responses: {
      202: jsonResponse('The delivery, due now.', webhookDelivery, {
        retried: { summary: 'Due now', value: { ...DELIVERY, status: 'pending', next_attempt_at: '2026-11-21T10:18:02.000Z' } },
      }),
      404: problemResponse('`not_found`: no such endpoint in the organization, or no such delivery of it.', {
        not_found: {
          summary: 'An unknown delivery',
          problem: integrationsProblem({ code: 'not_found', detail: 'no delivery with this id for this webhook endpoint' }),
        },
      }),
      409: problemResponse('`conflict`: the endpoint is disabled; enable it first.', {
        conflict: { summary: 'A disabled endpoint', problem: integrationsProblem({ code: 'conflict', detail: 'the endpoint is disabled; enable it first' }) },
      }),
      ...INTEGRATIONS_FAILURES,
    },
  });

export const ApiSendWebhookTest = () =>
  Documented({
    summary: 'Send a test event to a webhook endpoint',
    description:
      'Sends a `webhook.test` event to this endpoint alone, through the normal delivery path: signed with its secret, retried on the schedule, ' +
      'listed among its deliveries with the payload sent and the start of the answer. The endpoint need not subscribe to anything.',
    request: { params: endpointIdPath },
    responses: {
      202: jsonResponse('The delivery, due now.', webhookDelivery, {
        queued: {
          summary: 'Due now',
          value: {
            ...DELIVERY,
            type: 'webhook.test',
            attempts: 0,
            last_status_code: null,
            last_error: null,
            last_attempt_at: null,
            next_attempt_at: '2026-11-21T10:18:02.000Z',
            payload: `{"type":"webhook.test","timestamp":"2026-11-21T10:18:02.000Z","data":{"endpoint_id":"${ENDPOINT_ID}","message":"A test event sent from the management API: this endpoint receives and verifies deliveries."}}`,
            response_body: null,
          },
        },
      }),
      404: UNKNOWN_ENDPOINT,
      409: problemResponse('`conflict`: the endpoint is disabled; enable it first.', {
        conflict: { summary: 'A disabled endpoint', problem: integrationsProblem({ code: 'conflict', detail: 'the endpoint is disabled; enable it first' }) },
      }),
      ...INTEGRATIONS_FAILURES,
    },
  });
