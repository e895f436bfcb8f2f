import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, webhookPrivateUrlsAllowed, type AppConfig } from '@meter/config';
import { isUuid, WEBHOOK_OPERATIONS, WEBHOOK_TEST_EVENT, webhookReplies, webhookRequests } from '@meter/contracts';
import type { KeyRing } from '@meter/crypto';
import type { Deadline } from '@meter/messaging';
import { IntegrationsRpc } from '../rpc/integrations-rpc';
import { IntegrationsFailure } from '../rpc/integrations-failure';
import { DeliveryWorker } from './delivery-worker';
import { addDelivery, deliveriesOf, recordEvent, retryDelivery } from './delivery-store';
import { deliveryView, endpointView, type EndpointRow } from './endpoint-rows';
import { deleteEndpoint, endpointsOf, findEndpoint, insertEndpoint, rotateEndpointSecret, updateEndpoint, type EndpointChanges } from './endpoint-store';
import { scheduledAttempts } from './retry-schedule';
import { checkEndpointUrl } from './target-policy';
import { testEvent } from './test-event';
import { newWebhookSecret, sealWebhookSecret, WEBHOOK_RING } from './webhook-secrets';

/** How long a rotated-out secret keeps signing alongside the new one. */
const PREVIOUS_SECRET_HOURS = 24;
/** Deliveries a listing shows, newest first. */
const DELIVERY_LIST_LIMIT = 100;

const notFound = () => new IntegrationsFailure({ code: 'not_found', detail: 'no webhook endpoint with this id in the organization' });

/**
 * The management operations on webhook endpoints (`/webhook-endpoints`,
 * forwarded by auth over NATS): every query is scoped to the caller's
 * organization, secrets are stored sealed and shown once.
 */
@Injectable()
export class WebhookEndpoints implements OnApplicationBootstrap {
  private readonly allowPrivate: boolean;
  private readonly maxAttempts: number;

  constructor(
    @Inject(DataSource) private readonly db: DataSource,
    @Inject(IntegrationsRpc) private readonly rpc: IntegrationsRpc,
    @Inject(WEBHOOK_RING) private readonly ring: KeyRing,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(DeliveryWorker) private readonly worker: DeliveryWorker,
  ) {
    this.allowPrivate = webhookPrivateUrlsAllowed(config);
    this.maxAttempts = scheduledAttempts(config.WEBHOOK_RETRY_SCHEDULE_SECONDS);
  }

  onApplicationBootstrap() {
    const { create, list, update, delete: remove, rotateSecret, deliveries, retry, test } = WEBHOOK_OPERATIONS;
    this.rpc.serve(create, webhookRequests.create, webhookReplies.create, (r, deadline) => this.create(r.org_id, r.endpoint, deadline));
    this.rpc.serve(list, webhookRequests.list, webhookReplies.list, async (r) => ({ endpoints: (await endpointsOf(this.db, r.org_id)).map(endpointView) }));
    this.rpc.serve(update, webhookRequests.update, webhookReplies.update, (r, deadline) => this.update(r.org_id, r.endpoint_id, r.changes, deadline));
    this.rpc.serve(remove, webhookRequests.delete, webhookReplies.delete, (r, deadline) => this.remove(r.org_id, r.endpoint_id, deadline));
    this.rpc.serve(rotateSecret, webhookRequests.rotateSecret, webhookReplies.rotateSecret, (r, deadline) => this.rotate(r.org_id, r.endpoint_id, deadline));
    this.rpc.serve(deliveries, webhookRequests.deliveries, webhookReplies.deliveries, (r) => this.deliveries(r.org_id, r.endpoint_id));
    this.rpc.serve(retry, webhookRequests.retry, webhookReplies.retry, (r, deadline) => this.retry(r.org_id, r.endpoint_id, r.delivery_id, deadline));
    this.rpc.serve(test, webhookRequests.test, webhookReplies.test, (r, deadline) => this.sendTest(r.org_id, r.endpoint_id, deadline));
  }

  private async checkUrl(url: string) {
    const problem = await checkEndpointUrl(url, this.allowPrivate);
    if (problem) throw new IntegrationsFailure({ code: 'validation_failed', detail: `url: ${problem}`, errors: [{ field: 'url', message: problem }] });
  }

  private async create(orgId: string, input: { url: string; events: string[]; description?: string }, deadline: Deadline) {
    await this.checkUrl(input.url);
    const id = randomUUID();
    const secret = newWebhookSecret();
    const row = await this.db.transaction(async (m) => {
      const created = await insertEndpoint(m, {
        id,
        orgId,
        url: input.url,
        events: input.events,
        description: input.description ?? null,
        sealedSecret: sealWebhookSecret(this.ring, orgId, id, secret),
      });
      deadline.check();
      return created;
    });
    return { ...endpointView(row), secret };
  }

  private async update(orgId: string, endpointId: string, changes: EndpointChanges, deadline: Deadline) {
    if (!isUuid(endpointId)) throw notFound();
    if (changes.url !== undefined) await this.checkUrl(changes.url);
    const row = await this.db.transaction(async (m) => {
      const changed = await updateEndpoint(m, orgId, endpointId, changes);
      if (!changed) throw notFound();
      deadline.check();
      return changed;
    });
    // Enabling an endpoint resumes its pending deliveries at once.
    if (changes.status === 'enabled') this.worker.wake();
    return endpointView(row);
  }

  private async remove(orgId: string, endpointId: string, deadline: Deadline) {
    if (!isUuid(endpointId)) throw notFound();
    await this.db.transaction(async (m) => {
      if (!(await deleteEndpoint(m, orgId, endpointId))) throw notFound();
      deadline.check();
    });
    return { deleted: true as const };
  }

  private async rotate(orgId: string, endpointId: string, deadline: Deadline) {
    if (!isUuid(endpointId)) throw notFound();
    const secret = newWebhookSecret();
    const expires: Date = await this.db.transaction(async (m) => {
      const rotated = await rotateEndpointSecret(m, orgId, endpointId, sealWebhookSecret(this.ring, orgId, endpointId, secret), PREVIOUS_SECRET_HOURS);
      if (!rotated) throw notFound();
      deadline.check();
      return rotated;
    });
    return { secret, previous_secret_expires_at: expires.toISOString() };
  }

  private async endpoint(orgId: string, endpointId: string): Promise<EndpointRow> {
    if (!isUuid(endpointId)) throw notFound();
    const row = await findEndpoint(this.db, orgId, endpointId);
    if (!row) throw notFound();
    return row;
  }

  private async deliveries(orgId: string, endpointId: string) {
    await this.endpoint(orgId, endpointId);
    return { deliveries: (await deliveriesOf(this.db, orgId, endpointId, DELIVERY_LIST_LIMIT)).map(deliveryView) };
  }

  /**
   * A `webhook.test` event for this endpoint alone, delivered by the worker
   * like any other (signed, retried on the schedule, listed with its payload).
   */
  private async sendTest(orgId: string, endpointId: string, deadline: Deadline) {
    const endpoint = await this.endpoint(orgId, endpointId);
    if (endpoint.status === 'disabled') throw new IntegrationsFailure({ code: 'conflict', detail: 'the endpoint is disabled; enable it first' });
    const event = testEvent(endpoint.id, randomUUID(), new Date());
    const row = await this.db.transaction(async (m) => {
      await recordEvent(m, { eventId: event.eventId, orgId, type: WEBHOOK_TEST_EVENT, body: event.body });
      const added = await addDelivery(m, orgId, endpoint.id, event.eventId, WEBHOOK_TEST_EVENT, this.maxAttempts);
      deadline.check();
      return added;
    });
    this.worker.wake();
    return deliveryView(row);
  }

  /**
   * Attempts the delivery again now: a pending one at once, a failed or
   * delivered one once more (one attempt; it fails again if that fails).
   */
  private async retry(orgId: string, endpointId: string, deliveryId: string, deadline: Deadline) {
    const endpoint = await this.endpoint(orgId, endpointId);
    const missing = () => new IntegrationsFailure({ code: 'not_found', detail: 'no delivery with this id for this webhook endpoint' });
    if (!isUuid(deliveryId)) throw missing();
    if (endpoint.status === 'disabled') throw new IntegrationsFailure({ code: 'conflict', detail: 'the endpoint is disabled; enable it first' });
    const row = await this.db.transaction(async (m) => {
      const retried = await retryDelivery(m, orgId, endpointId, deliveryId);
      if (!retried) throw missing();
      deadline.check();
      return retried;
    });
    this.worker.wake();
    return deliveryView(row);
  }
}
