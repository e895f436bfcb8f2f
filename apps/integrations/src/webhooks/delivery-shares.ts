/** How many attempts each endpoint and organization has under way in this process. */
export interface Busy {
  endpoints: Map<string, number>;
  orgs: Map<string, number>;
}

/** The under-way counts of a set of claimed deliveries. */
export function busyOf(deliveries: Iterable<{ endpoint_id: string; org_id: string }>): Busy {
  const busy: Busy = { endpoints: new Map(), orgs: new Map() };
  for (const d of deliveries) {
    busy.endpoints.set(d.endpoint_id, (busy.endpoints.get(d.endpoint_id) ?? 0) + 1);
    busy.orgs.set(d.org_id, (busy.orgs.get(d.org_id) ?? 0) + 1);
  }
  return busy;
}

/** The claim query's parameters for what is under way: ids and counts as parallel arrays. */
export function busyParameters(busy: Busy): [string[], number[], string[], number[]] {
  return [[...busy.endpoints.keys()], [...busy.endpoints.values()], [...busy.orgs.keys()], [...busy.orgs.values()]];
}

/**
 * Claims due deliveries fairly: at most `$3` under way per endpoint and `$4`
 * per organization in this process (what is already under way, `$5`-`$8`,
 * counted), oldest due first within those shares, `$1` in all. The shares are
 * ranked without locks, then the chosen rows locked `SKIP LOCKED` and
 * re-checked, so replicas never claim the same delivery.
 */
export const FAIR_CLAIM_SQL = `
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
