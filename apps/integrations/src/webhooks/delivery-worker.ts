import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';
import { DataSource } from 'typeorm';
import { APP_CONFIG, webhookPrivateUrlsAllowed, type AppConfig } from '@meter/config';
import type { KeyRing } from '@meter/crypto';
import { Metrics } from '@meter/http';
import { signWebhook } from '@meter/signing';
import { DatabaseOutage } from '@meter/persistence';
import { busyOf } from './delivery-shares';
import { claimDeliveries, recordAttempt, releaseDelivery, type ClaimedDelivery } from './delivery-store';
import { disableGoneEndpoint } from './endpoint-store';
import { nextAttemptAt } from './retry-schedule';
import { postWebhook, type AttemptOutcome } from './send-webhook';
import { openWebhookSecret, WEBHOOK_RING } from './webhook-secrets';

/** A 2xx within this delivers (Standard Webhooks receivers answer fast and work later). */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** A claimed delivery is hidden from other workers this long: past the attempt's time limit, so a crashed worker's claims come back. */
const CLAIM_SECONDS = 45;
const POLL_MS = 1000;

/**
 * Sends due deliveries (docs/alerts-and-webhooks.md): claims them with
 * `FOR UPDATE SKIP LOCKED` and a lease in `next_attempt_at`, within each
 * endpoint's and organization's share of the attempts, so a dead receiver
 * cannot hold every slot; any number
 * of integrations replicas share the work and a crashed one's claims come
 * back; signs each attempt with the endpoint's secrets (the previous one too
 * during a rotation); records the outcome: 2xx delivered, 410 disables the
 * endpoint, anything else waits for the next step of the schedule, then
 * fails. Nothing leaves the table until it is delivered or failed, so a
 * restart loses nothing.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('webhooks');
  private readonly attempts: Counter<'outcome'>;
  private readonly latency: Histogram;
  private readonly allowPrivate: boolean;
  private readonly inFlight = new Map<string, { delivery: ClaimedDelivery; controller: AbortController; done: Promise<void> }>();
  private running = false;
  private loop?: Promise<void>;
  private wakeUp?: () => void;
  private woken = false;

  constructor(
    @Inject(DataSource) private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(WEBHOOK_RING) private readonly ring: KeyRing,
    @Inject(DatabaseOutage) private readonly outage: DatabaseOutage,
    @Inject(Metrics) metrics: Metrics,
  ) {
    this.allowPrivate = webhookPrivateUrlsAllowed(config);
    this.latency = new Histogram({
      name: 'meter_webhook_delivery_latency_seconds',
      help: 'From the event committed (the delivery created) to the receiver’s 2xx, retries included',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200, 86400],
      registers: [metrics.registry],
    });
    this.attempts = new Counter({
      name: 'meter_integrations_webhook_attempts_total',
      help: 'Webhook delivery attempts by outcome: delivered, retry, failed (no attempts left), gone (410: endpoint disabled)',
      labelNames: ['outcome'],
      registers: [metrics.registry],
    });
  }

  onApplicationBootstrap() {
    this.running = true;
    this.loop = this.run();
  }

  /** Look for due deliveries now (a new event fanned out, a retry asked for). */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Stops claiming; attempts under way are cut short and handed back as due at once, uncounted. */
  async beforeApplicationShutdown() {
    this.running = false;
    this.wake();
    for (const { controller } of this.inFlight.values()) controller.abort();
    await this.loop;
    await Promise.all([...this.inFlight.values()].map((f) => f.done));
  }

  private async run() {
    while (this.running) {
      let claimed: ClaimedDelivery[] = [];
      const room = this.config.WEBHOOK_DELIVERY_CONCURRENCY - this.inFlight.size;
      this.woken = false;
      if (room > 0) {
        try {
          claimed = await this.claim(room);
        } catch (error) {
          if (!this.outage.report(error)) this.logger.warn(`claiming deliveries failed, will retry: ${(error as Error).message}`);
        }
      }
      for (const delivery of claimed) this.start(delivery);
      // A full claim may have left more due: look again at once; otherwise wait for a wake-up or the poll.
      if (claimed.length === room && room > 0) continue;
      if (!this.woken) await new Promise<void>((resolve) => ((this.wakeUp = resolve), setTimeout(resolve, POLL_MS)));
      this.wakeUp = undefined;
    }
  }

  /** Due deliveries, within each endpoint's and organization's share of this process's attempts (delivery-shares.ts). */
  private async claim(limit: number): Promise<ClaimedDelivery[]> {
    const busy = busyOf([...this.inFlight.values()].map((f) => f.delivery));
    const { WEBHOOK_ENDPOINT_CONCURRENCY: perEndpoint, WEBHOOK_ORG_CONCURRENCY: perOrg } = this.config;
    return claimDeliveries(this.db, { limit, claimSeconds: CLAIM_SECONDS, perEndpoint, perOrg }, busy);
  }

  private start(delivery: ClaimedDelivery) {
    const controller = new AbortController();
    const done = this.attempt(delivery, controller.signal)
      .catch((error: unknown) => {
        if (!this.outage.report(error)) this.logger.warn(`delivery ${delivery.id}: ${(error as Error).message}`);
      })
      .finally(() => {
        this.inFlight.delete(delivery.id);
        this.wake();
      });
    this.inFlight.set(delivery.id, { delivery, controller, done });
  }

  private async attempt(delivery: ClaimedDelivery, signal: AbortSignal) {
    const secrets = [delivery.sealed_secret, ...(delivery.previous_sealed_secret && delivery.previous_valid ? [delivery.previous_sealed_secret] : [])].map(
      (sealed) => openWebhookSecret(this.ring, delivery.org_id, delivery.endpoint_id, sealed),
    );
    const headers = signWebhook(secrets, delivery.event_id, Math.floor(Date.now() / 1000), delivery.body);
    const outcome = await postWebhook(delivery.url, headers, delivery.body, { allowPrivate: this.allowPrivate, timeoutMs: DELIVERY_TIMEOUT_MS, signal });
    if (signal.aborted && !this.running) {
      // Stopping: the attempt did not finish; it is due again at once for whoever runs next.
      await releaseDelivery(this.db, delivery.id);
      return;
    }
    await this.record(delivery, outcome);
  }

  private async record(delivery: ClaimedDelivery, outcome: AttemptOutcome) {
    const attempts = delivery.attempts + 1;
    const status = 'status' in outcome ? outcome.status : null;
    const answer = 'body' in outcome ? outcome.body : null;
    const error = 'error' in outcome ? outcome.error : status !== null && (status < 200 || status > 299) ? `the receiver answered ${status}` : null;
    const delivered = status !== null && status >= 200 && status <= 299;
    const gone = status === 410;
    const next = delivered || gone ? null : nextAttemptAt(attempts, delivery.max_attempts, this.config.WEBHOOK_RETRY_SCHEDULE_SECONDS, Date.now());
    const state = delivered ? 'delivered' : next === null ? 'failed' : 'pending';
    this.attempts.inc({ outcome: delivered ? 'delivered' : gone ? 'gone' : state === 'failed' ? 'failed' : 'retry' });
    if (delivered) this.latency.observe(Math.max(0, Date.now() - delivery.created_at.getTime()) / 1000);
    await this.db.transaction(async (m) => {
      await recordAttempt(m, delivery.id, { attempts, status: state, statusCode: status, error, nextAttemptAt: next, answer });
      if (gone) await disableGoneEndpoint(m, delivery.endpoint_id);
    });
    if (gone) this.logger.warn(`webhook endpoint ${delivery.endpoint_id} of ${delivery.org_id} answered 410 Gone: disabled`);
  }
}
