import type { EntityManager } from 'typeorm';
import { CREDENTIAL_COLUMNS, type CredentialRow } from './credential-row';

/**
 * How auth keeps `auth.credentials`: every statement on the table is here.
 * Each takes the caller's manager (a DataSource's or a transaction's), so
 * the caller decides what commits together. Writes that are versioned return
 * TypeORM's raw result for `assertUpdated`.
 */

type Db = Pick<EntityManager, 'query'>;

/** The limits as stored: expires_at (ISO), allowed_origins, device_ids. */
export interface CredentialLimitColumns {
  expires_at: string | null;
  allowed_origins: string[];
  device_ids: number[] | null;
}

export interface NewCredential extends CredentialLimitColumns {
  id: string;
  orgId: string;
  name: string;
  type: 'secret' | 'public';
  accessKey: string;
  scopes: readonly string[];
  sealedSecret: string | null;
  createdAt: Date;
}

/** A new credential, active, at version 1, with no allowed CIDRs. */
export async function insertCredential(db: Db, c: NewCredential): Promise<void> {
  await db.query(
    `INSERT INTO auth.credentials (id, org_id, name, type, access_key, scopes, allowed_cidrs, sealed_secret, status, created_at, version,
                                   expires_at, allowed_origins, device_ids)
     VALUES ($1, $2, $3, $4, $5, $6, '{}', $7, 'active', $8, 1, $9, $10, $11)`,
    [c.id, c.orgId, c.name, c.type, c.accessKey, c.scopes, c.sealedSecret, c.createdAt, c.expires_at, c.allowed_origins, c.device_ids],
  );
}

/** The organization's credentials, oldest first. */
export async function credentialsOf(db: Db, orgId: string): Promise<CredentialRow[]> {
  return db.query(`SELECT ${CREDENTIAL_COLUMNS} FROM auth.credentials WHERE org_id = $1 ORDER BY created_at, id`, [orgId]);
}

/** One credential of the organization, row-locked for the transaction when `forUpdate`. */
export async function findCredential(db: Db, orgId: string, id: string, forUpdate: boolean): Promise<CredentialRow | undefined> {
  const lock = forUpdate ? ' FOR UPDATE' : '';
  const [row] = (await db.query(`SELECT ${CREDENTIAL_COLUMNS} FROM auth.credentials WHERE id = $1 AND org_id = $2${lock}`, [id, orgId])) as CredentialRow[];
  return row;
}

/** Revokes the credential at `version` and destroys its sealed secret. */
export function revokeCredential(db: Db, id: string, version: number, revokedAt: Date): Promise<unknown> {
  return db.query(
    `UPDATE auth.credentials SET status = 'revoked', revoked_at = $3, sealed_secret = NULL, version = version + 1
      WHERE id = $1 AND version = $2`,
    [id, version, revokedAt],
  );
}

export interface CredentialSettings extends CredentialLimitColumns {
  name: string;
  allowedCidrs: readonly string[];
}

/** Sets the name, allow-list and limits of the credential at `version`, moving it to `nextVersion`. */
export function updateCredentialSettings(db: Db, id: string, version: number, s: CredentialSettings, nextVersion: number): Promise<unknown> {
  return db.query(
    `UPDATE auth.credentials SET name = $3, allowed_cidrs = $4, expires_at = $5, allowed_origins = $6, device_ids = $7, version = $8
      WHERE id = $1 AND version = $2`,
    [id, version, s.name, s.allowedCidrs, s.expires_at, s.allowed_origins, s.device_ids, nextVersion],
  );
}

export interface CredentialUse {
  credential_id: string;
  org_id: string;
  last_used_at: string;
}

/** Moves `last_used_at` forward (never back), only within each credential's own organization; returns the rows changed. */
export async function recordCredentialUse(db: Db, usage: readonly CredentialUse[]): Promise<number> {
  const [, updated] = (await db.query(
    `UPDATE auth.credentials c SET last_used_at = u.t
     FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS u(id, org, t)
     WHERE c.id = u.id AND c.org_id = u.org AND (c.last_used_at IS NULL OR c.last_used_at < u.t)`,
    [usage.map((u) => u.credential_id), usage.map((u) => u.org_id), usage.map((u) => u.last_used_at)],
  )) as [unknown, number];
  return updated;
}

export interface SealedSecretRow {
  id: string;
  org_id: string;
  access_key: string;
  sealed_secret: string;
  version: number;
}

/** Every credential that still has a sealed secret (not revoked, not public). */
export async function sealedSecrets(db: Db): Promise<SealedSecretRow[]> {
  return db.query('SELECT id, org_id, access_key, sealed_secret, version FROM auth.credentials WHERE sealed_secret IS NOT NULL ORDER BY id');
}

/** Replaces the sealed secret of the credential at `version` (a re-seal under the active key). */
export function replaceSealedSecret(db: Db, id: string, version: number, sealed: string): Promise<unknown> {
  return db.query('UPDATE auth.credentials SET sealed_secret = $3, version = version + 1 WHERE id = $1 AND version = $2 AND sealed_secret IS NOT NULL', [
    id,
    version,
    sealed,
  ]);
}
