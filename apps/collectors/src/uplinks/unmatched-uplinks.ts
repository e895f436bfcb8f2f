/** A radio id that matched no device, as GET /collector-credentials/{id}/unmatched lists it. */
export interface UnmatchedUplink {
  radio_id_kind: 'dev_eui' | 'wmbus_id';
  radio_id: string;
  first_seen: string;
  last_seen: string;
  count: number;
}

interface Queryable {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/** Radio ids of one credential that matched no device, summed over a while. */
export interface Sighting {
  orgId: string;
  credentialId: string;
  kind: 'dev_eui' | 'wmbus_id';
  radioId: string;
  first: Date;
  last: Date;
  count: number;
}

/** Adds the sightings in one statement: counts add up, `last_seen` only moves forward. */
export async function recordUnmatchedUplinks(db: Queryable, batch: readonly Sighting[]): Promise<void> {
  await db.query(
    `INSERT INTO collectors.unmatched_uplinks AS u (org_id, credential_id, radio_id_kind, radio_id, first_seen, last_seen, count)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::timestamptz[], $7::bigint[])
     ON CONFLICT (org_id, credential_id, radio_id_kind, radio_id) DO UPDATE
       SET last_seen = greatest(u.last_seen, excluded.last_seen), count = u.count + excluded.count`,
    [
      batch.map((s) => s.orgId),
      batch.map((s) => s.credentialId),
      batch.map((s) => s.kind),
      batch.map((s) => s.radioId),
      batch.map((s) => s.first),
      batch.map((s) => s.last),
      batch.map((s) => s.count),
    ],
  );
}

/**
 * The latest 100 radio ids a collector credential sent that match no device
 * of its organization now (an id registered since drops out of the list).
 * Read by the management API; written only by collectors.
 */
export async function listUnmatchedUplinks(db: Queryable, orgId: string, credentialId: string): Promise<UnmatchedUplink[]> {
  const rows = (await db.query(
    `SELECT u.radio_id_kind, u.radio_id, u.first_seen, u.last_seen, u.count
       FROM collectors.unmatched_uplinks u
      WHERE u.org_id = $1 AND u.credential_id = $2
        AND NOT EXISTS (
          SELECT 1 FROM ingest.devices d
           WHERE d.org_id = u.org_id AND (CASE u.radio_id_kind WHEN 'dev_eui' THEN d.dev_eui ELSE d.wmbus_id END) = u.radio_id)
      ORDER BY u.last_seen DESC, u.radio_id
      LIMIT 100`,
    [orgId, credentialId],
  )) as { radio_id_kind: 'dev_eui' | 'wmbus_id'; radio_id: string; first_seen: Date; last_seen: Date; count: string }[];
  return rows.map((row) => ({
    radio_id_kind: row.radio_id_kind,
    radio_id: row.radio_id,
    first_seen: row.first_seen.toISOString(),
    last_seen: row.last_seen.toISOString(),
    count: Number(row.count),
  }));
}
