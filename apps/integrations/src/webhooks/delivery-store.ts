import type { Queryable } from '@meter/read-model';
import { busyParameters, type Busy } from './delivery-shares';
import { DELIVERY_COLUMNS, type DeliveryRow } from './endpoint-rows';

/**
 * How the integrations keep the delivery log, `integrations.webhook_events`
 * and `integrations.webhook_deliveries`: every statement on the two tables is
 * here. Each takes the caller's connection or transaction.
 */

/** An event as every delivery of it sends it. */
export interface WebhookEventRecord {
  eventId: string;
  orgId: string;
  type: string;
  body: string;
}

/** Stores the event once: a redelivered event adds nothing. */
export async function recordEvent(db: Queryable, event: WebhookEventRecord): Promise<void> {
  await db.query(`INSERT INTO integrations.webhook_events (event_id, org_id, type, body) VALUES ($1, $2, $3, $4) ON CONFLICT (event_id) DO NOTHING`, [
    event.eventId,
    event.orgId,
    event.type,
    event.body,
  ]);
}

/** One pending delivery, due now, per enabled endpoint of the organization subscribed to the type; none twice per endpoint and event. Returns how many were added. */
export async function addDeliveries(db: Queryable, orgId: string, eventId: string, type: string, maxAttempts: number): Promise<number> {
  const added = (await db.query(
    `INSERT INTO integrations.webhook_deliveries (id, endpoint_id, org_id, event_id, type, status, max_attempts, next_attempt_at)
     SELECT gen_random_uuid(), e.id, e.org_id, $2, $3, 'pending', $4, now()
     FROM integrations.webhook_endpoints e WHERE e.org_id = $1 AND e.status = 'enabled' AND $3 = ANY(e.events)
     ON CONFLICT (endpoint_id, event_id) DO NOTHING RETURNING id`,
    [orgId, eventId, type, maxAttempts],
  )) as unknown[];
  return added.length;
}

/** One pending delivery of the event to this endpoint alone, due now. */
export async function addDelivery(db: Queryable, orgId: string, endpointId: string, eventId: string, type: string, maxAttempts: number): Promise<DeliveryRow> {
  const [row] = (await db.query(
    `WITH added AS (
       INSERT INTO integrations.webhook_deliveries (id, endpoint_id, org_id, event_id, type, status, max_attempts, next_attempt_at)
       VALUES (gen_random_uuid(), $1, $2, $3, $4, 'pending', $5, now()) RETURNING *)
     SELECT ${DELIVERY_COLUMNS} FROM added d JOIN integrations.webhook_events ev ON ev.event_id = d.event_id`,
    [endpointId, orgId, eventId, type, maxAttempts],
  )) as DeliveryRow[];
  return row;
}

/** The endpoint's latest `limit` deliveries, newest first. */
export function deliveriesOf(db: Queryable, orgId: string, endpointId: string, limit: number): Promise<DeliveryRow[]> {
  return db.query(
    `SELECT ${DELIVERY_COLUMNS} FROM integrations.webhook_deliveries d JOIN integrations.webhook_events ev ON ev.event_id = d.event_id
     WHERE d.org_id = $1 AND d.endpoint_id = $2 ORDER BY d.created_at DESC, d.id LIMIT $3`,
    [orgId, endpointId, limit],
  );
}

/**
 * Makes the delivery due now: a pending one keeps its attempts left, a
 * failed or delivered one gets one more. Undefined when the endpoint has no
 * such delivery.
 */
export async function retryDelivery(db: Queryable, orgId: string, endpointId: string, deliveryId: string): Promise<DeliveryRow | undefined> {
  const [row] = (await db.query(
    `WITH retried AS (
       UPDATE integrations.webhook_deliveries SET status = 'pending', next_attempt_at = now(),
         max_attempts = CASE WHEN status = 'pending' THEN max_attempts ELSE greatest(max_attempts, attempts + 1) END
       WHERE org_id = $1 AND endpoint_id = $2 AND id = $3 RETURNING *)
     SELECT ${DELIVERY_COLUMNS} FROM retried d JOIN integrations.webhook_events ev ON ev.event_id = d.event_id`,
    [orgId, endpointId, deliveryId],
  )) as DeliveryRow[];
  return row;
}

/** A claimed delivery, with what its attempt needs: the endpoint's url and secrets, the event's body. */
export interface ClaimedDelivery {
  id: string;
  org_id: string;
  endpoint_id: string;
  event_id: string;
  attempts: number;
  max_attempts: number;
  created_at: Date;
  url: string;
  sealed_secret: string;
  previous_sealed_secret: string | null;
  previous_valid: boolean | null;
  body: string;
}

export interface ClaimLimits {
  /** deliveries claimed at most */
  limit: number;
  /** how long a claim hides the delivery from other workers */
  claimSeconds: number;
  /** attempts under way at most per endpoint, and per organization, counting `busy` */
  perEndpoint: number;
  perOrg: number;
}

/** Claims due deliveries within each endpoint's and organization's share (FAIR_CLAIM_SQL). */
export function claimDeliveries(db: Queryable, limits: ClaimLimits, busy: Busy): Promise<ClaimedDelivery[]> {
  return db.query(FAIR_CLAIM_SQL, [limits.limit, limits.claimSeconds, limits.perEndpoint, limits.perOrg, ...busyParameters(busy)]);
}

/** A claimed delivery whose attempt did not finish: due again at once, uncounted. */
export async function releaseDelivery(db: Queryable, id: string): Promise<void> {
  await db.query(`UPDATE integrations.webhook_deliveries SET next_attempt_at = now() WHERE id = $1 AND status = 'pending'`, [id]);
}

/** What an attempt came to. */
export interface AttemptRecord {
  attempts: number;
  status: 'pending' | 'delivered' | 'failed';
  statusCode: number | null;
  error: string | null;
  /** ms since the epoch; null once delivered or failed */
  nextAttemptAt: number | null;
  answer: string | null;
}

export async function recordAttempt(db: Queryable, id: string, a: AttemptRecord): Promise<void> {
  await db.query(
    `UPDATE integrations.webhook_deliveries SET attempts = $2, status = $3, last_status_code = $4, last_error = $5,
       next_attempt_at = $6, last_attempt_at = now(), last_response_body = $7 WHERE id = $1`,
    [id, a.attempts, a.status, a.statusCode, a.error, a.nextAttemptAt === null ? null : new Date(a.nextAttemptAt).toISOString(), a.answer],
  );
}

/** Deletes up to `limit` delivered or failed deliveries last changed before the retention; a row being retried right now is skipped. */
export async function deleteFinishedDeliveries(m: Queryable, days: number, limit: number): Promise<number> {
  const [{ n }]: { n: number }[] = await m.query(
    `WITH deleted AS (
       DELETE FROM integrations.webhook_deliveries WHERE id IN (
         SELECT id FROM integrations.webhook_deliveries
         WHERE status IN ('delivered', 'failed') AND coalesce(last_attempt_at, created_at) < now() - make_interval(days => $1::int)
         LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING 1)
     SELECT count(*)::int AS n FROM deleted`,
    [days, limit],
  );
  return n;
}

export interface EventCursor {
  receivedAt: string;
  eventId: string;
}

/**
 * Looks at the next `limit` events received before the retention, in
 * (received_at, event_id) order after `after`, and deletes those no delivery
 * refers to. Walking a cursor rather than asking for the first unreferenced
 * ones each time keeps events a pending delivery still needs (a disabled
 * endpoint's, say) from being read again by every batch.
 */
export async function deleteUnreferencedEvents(m: Queryable, days: number, limit: number, after: EventCursor) {
  const [row]: { scanned: number; deleted: number; last_received_at: string | null; last_event_id: string | null }[] = await m.query(
    `WITH scanned AS (
       SELECT event_id, received_at FROM integrations.webhook_events
       WHERE received_at < now() - make_interval(days => $1::int) AND (received_at, event_id) > ($3::timestamptz, $4::uuid)
       ORDER BY received_at, event_id LIMIT $2
     ), deleted AS (
       DELETE FROM integrations.webhook_events e USING scanned s
       WHERE e.event_id = s.event_id AND NOT EXISTS (SELECT 1 FROM integrations.webhook_deliveries d WHERE d.event_id = e.event_id)
       RETURNING 1
     ), last AS (
       SELECT received_at, event_id FROM scanned ORDER BY received_at DESC, event_id DESC LIMIT 1
     )
     SELECT (SELECT count(*)::int FROM scanned) AS scanned, (SELECT count(*)::int FROM deleted) AS deleted,
       (SELECT received_at::text FROM last) AS last_received_at, (SELECT event_id FROM last) AS last_event_id`,
    [days, limit, after.receivedAt, after.eventId],
  );
  const next = row.last_received_at && row.last_event_id ? { receivedAt: row.last_received_at, eventId: row.last_event_id } : after;
  return { scanned: row.scanned, deleted: row.deleted, next };
}

/**
 * Claims due deliveries fairly: at most `$3` under way per endpoint and `$4`
 * per organization in this process (what is already under way, `$5`-`$8`,
 * counted), oldest due first within those shares, `$1` in all. The shares are
 * ranked without locks, then the chosen rows locked `SKIP LOCKED` and
 * re-checked, so replicas never claim the same delivery.
 */
const FAIR_CLAIM_SQL = `
  WITH busy_endpoint AS (SELECT * FROM unnest($5::uuid[], $6::int[]) AS b(endpoint_id, n)),
  busy_org AS (SELECT * FROM unnest($7::text[], $8::int[]) AS b(org_id, n)),
  by_endpoint AS (
    SELECT d.id, d.org_id, d.next_attempt_at,
      row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at, d.id) + coalesce(be.n, 0) AS endpoint_slot
    FROM integrations.webhook_deliveries d
    JOIN integrations.webhook_endpoints e ON e.id = d.endpoint_id AND e.status = 'enabled'
    LEFT JOIN busy_endpoint be ON be.endpoint_id = d.endpoint_id
    WHERE d.status = 'pending' AND d.next_attempt_at <= now()
  ),
  by_org AS (
    SELECT c.id, c.next_attempt_at,
      row_number() OVER (PARTITION BY c.org_id ORDER BY c.next_attempt_at, c.id) + coalesce(bo.n, 0) AS org_slot
    FROM by_endpoint c LEFT JOIN busy_org bo ON bo.org_id = c.org_id
    WHERE c.endpoint_slot <= $3
  ),
  due AS (
    SELECT d.id FROM integrations.webhook_deliveries d JOIN by_org f ON f.id = d.id
    WHERE f.org_slot <= $4 AND d.status = 'pending' AND d.next_attempt_at <= now()
    ORDER BY f.next_attempt_at LIMIT $1 FOR UPDATE OF d SKIP LOCKED
  ),
  claimed AS (
    UPDATE integrations.webhook_deliveries d SET next_attempt_at = now() + $2 * interval '1 second' FROM due WHERE d.id = due.id RETURNING d.*
  )
  SELECT c.id, c.org_id, c.endpoint_id, c.event_id, c.attempts, c.max_attempts, c.created_at, e.url, e.sealed_secret, e.previous_sealed_secret,
    e.previous_secret_expires_at > now() AS previous_valid, ev.body
  FROM claimed c JOIN integrations.webhook_endpoints e ON e.id = c.endpoint_id JOIN integrations.webhook_events ev ON ev.event_id = c.event_id`;
