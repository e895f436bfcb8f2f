import type { EntityManager } from 'typeorm';

/**
 * How auth keeps `auth.organizations` and `auth.admins`. Each statement
 * takes the caller's manager (a DataSource's or a transaction's); versioned
 * writes return TypeORM's raw result for `assertUpdated`.
 */

type Db = Pick<EntityManager, 'query'>;

/** The scopes the organization's credentials may be given. */
export async function organizationScopes(db: Db, orgId: string): Promise<string[]> {
  const [org] = (await db.query('SELECT scopes FROM auth.organizations WHERE id = $1', [orgId])) as { scopes: string[] }[];
  return org?.scopes ?? [];
}

export async function insertOrganization(db: Db, id: string, name: string, scopes: readonly string[], at: Date): Promise<void> {
  await db.query('INSERT INTO auth.organizations (id, name, scopes, created_at, version) VALUES ($1, $2, $3, $4, 1)', [id, name, scopes, at]);
}

/** An active admin at version 1; a taken email fails on the unique index (23505). */
export async function insertAdmin(db: Db, id: string, orgId: string, email: string, passwordHash: string, at: Date): Promise<void> {
  await db.query('INSERT INTO auth.admins (id, org_id, email, password_hash, active, created_at, version) VALUES ($1, $2, $3, $4, true, $5, 1)', [
    id,
    orgId,
    email,
    passwordHash,
    at,
  ]);
}

export interface AdminRow {
  id: string;
  org_id: string;
  email: string;
  password_hash: string;
  active: boolean;
  version: number;
}

/** The admin with this email (normalized, lower case), active or not. */
export async function adminByEmail(db: Db, email: string): Promise<AdminRow | undefined> {
  const [admin] = (await db.query('SELECT id, org_id, email, password_hash, active, version FROM auth.admins WHERE lower(email) = $1', [email])) as AdminRow[];
  return admin;
}

/** Replaces the admin's password hash at `version` (a rehash with today's parameters). */
export function rehashAdminPassword(db: Db, adminId: string, version: number, passwordHash: string): Promise<unknown> {
  return db.query('UPDATE auth.admins SET password_hash = $3, version = version + 1 WHERE id = $1 AND version = $2', [adminId, version, passwordHash]);
}

/** The admin's organization, version and whether it is active. */
export async function adminState(db: Db, adminId: string): Promise<{ org_id: string; version: number; active: boolean } | undefined> {
  const [admin] = (await db.query('SELECT org_id, version, active FROM auth.admins WHERE id = $1', [adminId])) as {
    org_id: string;
    version: number;
    active: boolean;
  }[];
  return admin;
}

export function deactivateAdminRow(db: Db, adminId: string, version: number): Promise<unknown> {
  return db.query('UPDATE auth.admins SET active = false, version = version + 1 WHERE id = $1 AND version = $2', [adminId, version]);
}
