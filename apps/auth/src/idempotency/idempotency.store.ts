import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** What a key already holds: a request in progress, or the first answer. */
export type KeyState = { state: 'pending'; fingerprint: string } | { state: 'completed'; fingerprint: string; response: unknown };

/**
 * `auth.idempotency_keys`: one row per organization and key, claimed by the
 * first request (the primary key makes concurrent claims race safely: one
 * wins), completed with its answer, forgotten after 24 h. A claim left
 * pending for 2 minutes (its process died mid-request) may be taken over.
 */
@Injectable()
export class IdempotencyStore {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** True when this request now owns the key; false when another holds it. */
  async claim(orgId: string, key: string, fingerprint: string): Promise<boolean> {
    // Expired keys of the organization go first, this one included.
    await this.dataSource.query(
      `DELETE FROM auth.idempotency_keys
        WHERE org_id = $1 AND (created_at < now() - interval '24 hours' OR (key = $2 AND state = 'pending' AND created_at < now() - interval '2 minutes'))`,
      [orgId, key],
    );
    const inserted = (await this.dataSource.query(
      `INSERT INTO auth.idempotency_keys (org_id, key, fingerprint, state, created_at) VALUES ($1, $2, $3, 'pending', now())
       ON CONFLICT (org_id, key) DO NOTHING RETURNING key`,
      [orgId, key, fingerprint],
    )) as unknown[];
    return inserted.length === 1;
  }

  async find(orgId: string, key: string): Promise<KeyState | undefined> {
    const [row] = (await this.dataSource.query(
      `SELECT fingerprint, state, response FROM auth.idempotency_keys WHERE org_id = $1 AND key = $2 AND created_at >= now() - interval '24 hours'`,
      [orgId, key],
    )) as { fingerprint: string; state: 'pending' | 'completed'; response: unknown }[];
    if (!row) return undefined;
    return row.state === 'pending'
      ? { state: 'pending', fingerprint: row.fingerprint }
      : { state: 'completed', fingerprint: row.fingerprint, response: row.response };
  }

  /** The answer to repeat; `null` for an answer without a body. */
  async complete(orgId: string, key: string, response: unknown): Promise<void> {
    await this.dataSource.query(`UPDATE auth.idempotency_keys SET state = 'completed', response = $3::jsonb WHERE org_id = $1 AND key = $2`, [
      orgId,
      key,
      JSON.stringify(response ?? null),
    ]);
  }

  /** The request failed: the key is free again, so a retry runs it afresh. */
  async release(orgId: string, key: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM auth.idempotency_keys WHERE org_id = $1 AND key = $2 AND state = 'pending'`, [orgId, key]);
  }
}
