import type { Credential } from './credential-schemas';

/** A row of auth.credentials as the queries select it (never with the sealed secret). */
export interface CredentialRow {
  id: string;
  org_id: string;
  name: string;
  type: 'secret' | 'public';
  access_key: string;
  scopes: string[];
  allowed_cidrs: string[];
  status: 'active' | 'revoked';
  created_at: Date;
  revoked_at: Date | null;
  last_used_at: Date | null;
  expires_at: Date | null;
  allowed_origins: string[];
  /** bigint[] comes back as strings */
  device_ids: string[] | null;
  version: number;
}

export const CREDENTIAL_COLUMNS =
  'id, org_id, name, type, access_key, scopes, allowed_cidrs, status, created_at, revoked_at, last_used_at, expires_at, allowed_origins, device_ids, version';

/** A credential as listed and read (Credential): never its secret. */
export function credentialView(row: CredentialRow): Credential {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    access_key: row.access_key,
    scopes: row.scopes,
    allowed_cidrs: row.allowed_cidrs,
    allowed_origins: row.allowed_origins,
    device_ids: row.device_ids?.map(Number) ?? null,
    expires_at: row.expires_at?.toISOString() ?? null,
    status: row.status,
    created_at: row.created_at.toISOString(),
    revoked_at: row.revoked_at?.toISOString() ?? null,
    last_used_at: row.last_used_at?.toISOString() ?? null,
  };
}
