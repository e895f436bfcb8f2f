import type { CollectorFormat, CollectorMapping } from '@meter/contracts';
import type { EntityManager } from 'typeorm';
import { COLLECTOR_CREDENTIAL_COLUMNS, type CollectorCredentialRow } from './collector-credential-row';

/**
 * How auth keeps `auth.collector_credentials`: every statement on the table
 * is here. Each takes the caller's manager (a DataSource's or a
 * transaction's); versioned writes return TypeORM's raw result for
 * `assertUpdated`.
 */

type Db = Pick<EntityManager, 'query'>;

export interface NewCollectorCredential {
  id: string;
  orgId: string;
  name: string;
  format: CollectorFormat;
  mapping: CollectorMapping;
  username: string;
  passwordHash: string;
  createdAt: Date;
}

/** A new credential, active, at version 1. */
export async function insertCollectorCredential(db: Db, c: NewCollectorCredential): Promise<void> {
  await db.query(
    `INSERT INTO auth.collector_credentials (id, org_id, name, format, mapping, username, password_hash, status, created_at, version)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'active', $8, 1)`,
    [c.id, c.orgId, c.name, c.format, JSON.stringify(c.mapping), c.username, c.passwordHash, c.createdAt],
  );
}

/** The organization's collector credentials, oldest first. */
export function collectorCredentialsOf(db: Db, orgId: string): Promise<CollectorCredentialRow[]> {
  return db.query(`SELECT ${COLLECTOR_CREDENTIAL_COLUMNS} FROM auth.collector_credentials WHERE org_id = $1 ORDER BY created_at, id`, [orgId]);
}

/** One credential of the organization, row-locked for the transaction when `forUpdate`. */
export async function findCollectorCredential(db: Db, orgId: string, id: string, forUpdate: boolean): Promise<CollectorCredentialRow | undefined> {
  const [row] = (await db.query(
    `SELECT ${COLLECTOR_CREDENTIAL_COLUMNS} FROM auth.collector_credentials WHERE id = $1 AND org_id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
    [id, orgId],
  )) as CollectorCredentialRow[];
  return row;
}

/** The active credential a collector signs in with, whatever its organization. */
export async function activeCollectorCredential(db: Db, username: string): Promise<CollectorCredentialRow | undefined> {
  const [row] = (await db.query(
    `SELECT id, org_id, username, format, mapping, password_hash FROM auth.collector_credentials WHERE username = $1 AND status = 'active'`,
    [username],
  )) as CollectorCredentialRow[];
  return row;
}

export function revokeCollectorCredential(db: Db, id: string, version: number, revokedAt: Date): Promise<unknown> {
  return db.query(`UPDATE auth.collector_credentials SET status = 'revoked', revoked_at = $3, version = version + 1 WHERE id = $1 AND version = $2`, [
    id,
    version,
    revokedAt,
  ]);
}
