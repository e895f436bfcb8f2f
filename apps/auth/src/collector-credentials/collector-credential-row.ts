import type { CollectorFormat, CollectorMapping } from '@meter/contracts';
import type { CollectorCredential } from './collector-credential-schemas';

export interface CollectorCredentialRow {
  id: string;
  org_id: string;
  name: string;
  format: CollectorFormat;
  mapping: CollectorMapping;
  username: string;
  password_hash: string;
  status: 'active' | 'revoked';
  created_at: Date;
  revoked_at: Date | null;
  version: number;
}

export const COLLECTOR_CREDENTIAL_COLUMNS = 'id, org_id, name, format, mapping, username, password_hash, status, created_at, revoked_at, version';

export function collectorCredentialView(row: CollectorCredentialRow): CollectorCredential {
  return {
    id: row.id,
    name: row.name,
    format: row.format,
    mapping: row.mapping,
    username: row.username,
    status: row.status,
    created_at: row.created_at.toISOString(),
    revoked_at: row.revoked_at?.toISOString() ?? null,
  };
}
