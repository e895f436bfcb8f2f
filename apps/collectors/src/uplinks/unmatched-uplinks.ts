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
