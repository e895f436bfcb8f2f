import type { EntityManager } from 'typeorm';

/**
 * How auth keeps `auth.sessions`: the statements of sign-in,
 * authentication and sign-out (admins are in organization-store.ts). Each
 * takes the caller's manager (a DataSource's or a transaction's).
 */

type Db = Pick<EntityManager, 'query'>;

export interface NewSession {
  id: string;
  tokenHash: string;
  adminId: string;
  orgId: string;
  createdAt: Date;
  expiresAt: Date;
}

export async function insertSession(db: Db, s: NewSession): Promise<void> {
  await db.query('INSERT INTO auth.sessions (id, token_hash, admin_id, org_id, created_at, expires_at, version) VALUES ($1, $2, $3, $4, $5, $6, 1)', [
    s.id,
    s.tokenHash,
    s.adminId,
    s.orgId,
    s.createdAt,
    s.expiresAt,
  ]);
}

export interface SessionAdmin {
  session_id: string;
  admin_id: string;
  org_id: string;
  email: string;
}

/** The session with this token hash, if unexpired, not ended and its admin still active. */
export async function liveSession(db: Db, tokenHash: string): Promise<SessionAdmin | undefined> {
  const [row] = (await db.query(
    `SELECT s.id AS session_id, a.id AS admin_id, a.org_id, a.email
       FROM auth.sessions s JOIN auth.admins a ON a.id = s.admin_id
      WHERE s.token_hash = $1 AND s.ended_at IS NULL AND s.expires_at > now() AND a.active`,
    [tokenHash],
  )) as SessionAdmin[];
  return row;
}

/** Ends the session; its new version, or undefined when it had ended already. */
export async function endSession(db: Db, sessionId: string): Promise<number | undefined> {
  const result = (await db.query('UPDATE auth.sessions SET ended_at = now(), version = version + 1 WHERE id = $1 AND ended_at IS NULL RETURNING version', [
    sessionId,
  ])) as [{ version: number }[], number];
  return result[0][0]?.version;
}

/** Ends every open, unexpired session of the admin at `at`; the sessions ended, with their new versions. */
export async function endAdminSessions(db: Db, adminId: string, at: Date): Promise<{ id: string; version: number }[]> {
  const result = (await db.query(
    'UPDATE auth.sessions SET ended_at = $2, version = version + 1 WHERE admin_id = $1 AND ended_at IS NULL AND expires_at > $2 RETURNING id, version',
    [adminId, at],
  )) as [{ id: string; version: number }[], number];
  return result[0];
}
