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
import { DELIVERY_COLUMNS, deliveryView, ENDPOINT_COLUMNS, endpointView, type DeliveryRow, type EndpointRow } from './endpoint-rows';
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
    this.rpc.serve(list, webhookRequests.list, webhookReplies.list, async (r) => ({ endpoints: (await this.rows(r.org_id)).map(endpointView) }));
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
      const [created]: EndpointRow[] = await m.query(
        `INSERT INTO integrations.webhook_endpoints (id, org_id, url, events, description, status, sealed_secret)
         VALUES ($1, $2, $3, $4, $5, 'enabled', $6) RETURNING ${ENDPOINT_COLUMNS}`,
        [id, orgId, input.url, input.events, input.description ?? null, sealWebhookSecret(this.ring, orgId, id, secret)],
      );
      deadline.check();
      return created;
    });
    return { ...endpointView(row), secret };
  }

  private rows(orgId: string): Promise<EndpointRow[]> {
    return this.db.query(`SELECT ${ENDPOINT_COLUMNS} FROM integrations.webhook_endpoints WHERE org_id = $1 ORDER BY created_at, id`, [orgId]);
  }

  private async update(
    orgId: string,
    endpointId: string,
    changes: { url?: string; events?: string[]; status?: string; description?: string },
    deadline: Deadline,
  ) {
    if (!isUuid(endpointId)) throw notFound();
    if (changes.url !== undefined) await this.checkUrl(changes.url);
    const row = await this.db.transaction(async (m) => {
      const rows: EndpointRow[] = await m.query(
        `WITH changed AS (
           UPDATE integrations.webhook_endpoints SET url = coalesce($3, url), events = coalesce($4, events),
             description = CASE WHEN $6::boolean THEN $5 ELSE description END, status = coalesce($7, status),
             disabled_reason = CASE WHEN $7 IS NOT NULL THEN NULL ELSE disabled_reason END, updated_at = now()
           WHERE org_id = $1 AND id = $2 RETURNING ${ENDPOINT_COLUMNS})
         SELECT * FROM changed`,
        [
          orgId,
          endpointId,
          changes.url ?? null,
          changes.events ?? null,
          changes.description ?? null,
          changes.description !== undefined,
          changes.status ?? null,
        ],
      );
      if (rows.length === 0) throw notFound();
      deadline.check();
      return rows[0];
    });
    // Enabling an endpoint resumes its pending deliveries at once.
    if (changes.status === 'enabled') this.worker.wake();
    return endpointView(row);
  }

  private async remove(orgId: string, endpointId: string, deadline: Deadline) {
    if (!isUuid(endpointId)) throw notFound();
    await this.db.transaction(async (m) => {
      const rows: unknown[] = await m.query(
        `WITH gone AS (DELETE FROM integrations.webhook_endpoints WHERE org_id = $1 AND id = $2 RETURNING id) SELECT id FROM gone`,
        [orgId, endpointId],
      );
      if (rows.length === 0) throw notFound();
      deadline.check();
    });
    return { deleted: true as const };
  }

  private async rotate(orgId: string, endpointId: string, deadline: Deadline) {
    if (!isUuid(endpointId)) throw notFound();
    const secret = newWebhookSecret();
    const expires: Date = await this.db.transaction(async (m) => {
      const rows: { expires: Date }[] = await m.query(
        `WITH rotated AS (
           UPDATE integrations.webhook_endpoints SET previous_sealed_secret = sealed_secret, sealed_secret = $3,
             previous_secret_expires_at = now() + $4 * interval '1 hour', updated_at = now()
           WHERE org_id = $1 AND id = $2 RETURNING previous_secret_expires_at AS expires)
         SELECT expires FROM rotated`,
        [orgId, endpointId, sealWebhookSecret(this.ring, orgId, endpointId, secret), PREVIOUS_SECRET_HOURS],
      );
      if (rows.length === 0) throw notFound();
      deadline.check();
      return rows[0].expires;
    });
    return { secret, previous_secret_expires_at: expires.toISOString() };
  }

  private async endpoint(orgId: string, endpointId: string): Promise<EndpointRow> {
    if (!isUuid(endpointId)) throw notFound();
    const [row]: EndpointRow[] = await this.db.query(`SELECT ${ENDPOINT_COLUMNS} FROM integrations.webhook_endpoints WHERE org_id = $1 AND id = $2`, [
      orgId,
      endpointId,
    ]);
    if (!row) throw notFound();
    return row;
  }

  private async deliveries(orgId: string, endpointId: string) {
    await this.endpoint(orgId, endpointId);
    const rows: DeliveryRow[] = await this.db.query(
      `SELECT ${DELIVERY_COLUMNS} FROM integrations.webhook_deliveries d JOIN integrations.webhook_events ev ON ev.event_id = d.event_id
       WHERE d.org_id = $1 AND d.endpoint_id = $2 ORDER BY d.created_at DESC, d.id LIMIT $3`,
      [orgId, endpointId, DELIVERY_LIST_LIMIT],
    );
    return { deliveries: rows.map(deliveryView) };
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
      await m.query(`INSERT INTO integrations.webhook_events (event_id, org_id, type, body) VALUES ($1, $2, $3, $4)`, [
        event.eventId,
        orgId,
        WEBHOOK_TEST_EVENT,
        event.body,
      ]);
      const rows: DeliveryRow[] = await m.query(
        `WITH added AS (
           INSERT INTO integrations.webhook_deliveries (id, endpoint_id, org_id, event_id, type, status, max_attempts, next_attempt_at)
           VALUES (gen_random_uuid(), $1, $2, $3, $4, 'pending', $5, now()) RETURNING *)
         SELECT ${DELIVERY_COLUMNS} FROM added d JOIN integrations.webhook_events ev ON ev.event_id = d.event_id`,
        [endpoint.id, orgId, event.eventId, WEBHOOK_TEST_EVENT, this.maxAttempts],
      );
      deadline.check();
      return rows[0];
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
      const rows: DeliveryRow[] = await m.query(
        `WITH retried AS (
           UPDATE integrations.webhook_deliveries SET status = 'pending', next_attempt_at = now(),
             max_attempts = CASE WHEN status = 'pending' THEN max_attempts ELSE greatest(max_attempts, attempts + 1) END
           WHERE org_id = $1 AND endpoint_id = $2 AND id = $3 RETURNING *)
         SELECT ${DELIVERY_COLUMNS} FROM retried d JOIN integrations.webhook_events ev ON ev.event_id = d.event_id`,
        [orgId, endpointId, deliveryId],
      );
      if (rows.length === 0) throw missing();
      deadline.check();
      return rows[0];
    });
    this.worker.wake();
    return deliveryView(row);
  }
}
