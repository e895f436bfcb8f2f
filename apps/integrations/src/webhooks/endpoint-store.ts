import type { Queryable } from '@meter/read-model';
import { ENDPOINT_COLUMNS, type EndpointRow } from './endpoint-rows';

/**
 * How the integrations keep `integrations.webhook_endpoints`: every statement
 * on the table is here, each scoped to the organization that asks. Each
 * takes the caller's connection or transaction.
 */

export interface NewEndpoint {
  id: string;
  orgId: string;
  url: string;
  events: readonly string[];
  description: string | null;
  sealedSecret: string;
}

/** A new endpoint, enabled. */
export async function insertEndpoint(db: Queryable, e: NewEndpoint): Promise<EndpointRow> {
  const [created] = (await db.query(
    `INSERT INTO integrations.webhook_endpoints (id, org_id, url, events, description, status, sealed_secret)
     VALUES ($1, $2, $3, $4, $5, 'enabled', $6) RETURNING ${ENDPOINT_COLUMNS}`,
    [e.id, e.orgId, e.url, e.events, e.description, e.sealedSecret],
  )) as EndpointRow[];
  return created;
}

/** The organization's endpoints, oldest first. */
export function endpointsOf(db: Queryable, orgId: string): Promise<EndpointRow[]> {
  return db.query(`SELECT ${ENDPOINT_COLUMNS} FROM integrations.webhook_endpoints WHERE org_id = $1 ORDER BY created_at, id`, [orgId]);
}

export async function findEndpoint(db: Queryable, orgId: string, endpointId: string): Promise<EndpointRow | undefined> {
  const [row] = (await db.query(`SELECT ${ENDPOINT_COLUMNS} FROM integrations.webhook_endpoints WHERE org_id = $1 AND id = $2`, [
    orgId,
    endpointId,
  ])) as EndpointRow[];
  return row;
}

export interface EndpointChanges {
  url?: string;
  events?: string[];
  status?: string;
  description?: string;
}

/** Applies the changes present (a status change clears the disabled reason); undefined when the organization has no such endpoint. */
export async function updateEndpoint(db: Queryable, orgId: string, endpointId: string, changes: EndpointChanges): Promise<EndpointRow | undefined> {
  const [row] = (await db.query(
    `WITH changed AS (
       UPDATE integrations.webhook_endpoints SET url = coalesce($3, url), events = coalesce($4, events),
         description = CASE WHEN $6::boolean THEN $5 ELSE description END, status = coalesce($7, status),
         disabled_reason = CASE WHEN $7 IS NOT NULL THEN NULL ELSE disabled_reason END, updated_at = now()
       WHERE org_id = $1 AND id = $2 RETURNING ${ENDPOINT_COLUMNS})
     SELECT * FROM changed`,
    [orgId, endpointId, changes.url ?? null, changes.events ?? null, changes.description ?? null, changes.description !== undefined, changes.status ?? null],
  )) as EndpointRow[];
  return row;
}

/** Deletes the endpoint (its deliveries go with it); false when the organization has no such endpoint. */
export async function deleteEndpoint(db: Queryable, orgId: string, endpointId: string): Promise<boolean> {
  const rows = (await db.query(`WITH gone AS (DELETE FROM integrations.webhook_endpoints WHERE org_id = $1 AND id = $2 RETURNING id) SELECT id FROM gone`, [
    orgId,
    endpointId,
  ])) as unknown[];
  return rows.length > 0;
}

/** Makes `sealedSecret` the signing secret; the old one keeps signing alongside for `previousHours`. Undefined when there is no such endpoint. */
export async function rotateEndpointSecret(
  db: Queryable,
  orgId: string,
  endpointId: string,
  sealedSecret: string,
  previousHours: number,
): Promise<Date | undefined> {
  const [row] = (await db.query(
    `WITH rotated AS (
       UPDATE integrations.webhook_endpoints SET previous_sealed_secret = sealed_secret, sealed_secret = $3,
         previous_secret_expires_at = now() + $4 * interval '1 hour', updated_at = now()
       WHERE org_id = $1 AND id = $2 RETURNING previous_secret_expires_at AS expires)
     SELECT expires FROM rotated`,
    [orgId, endpointId, sealedSecret, previousHours],
  )) as { expires: Date }[];
  return row?.expires;
}

/** An endpoint whose receiver answered 410 Gone: disabled, saying when. */
export async function disableGoneEndpoint(db: Queryable, endpointId: string): Promise<void> {
  await db.query(
    `UPDATE integrations.webhook_endpoints SET status = 'disabled', updated_at = now(),
       disabled_reason = 'the receiver answered 410 Gone at ' || to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
     WHERE id = $1`,
    [endpointId],
  );
}
