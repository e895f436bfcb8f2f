import { createSchemaMigration, type ServiceStore } from '@meter/persistence';
import { AuditLog1765000000000 } from './audit-log.migration';
import { AuthTables1763700100000 } from './auth-tables.migration';
import { CollectorCredentials1764400000000 } from './collector-credentials.migration';
import { CredentialLimits1764800000000 } from './credential-limits.migration';
import { IdempotencyKeys1764900000000 } from './idempotency-keys.migration';

/** The auth service's tables live in the `auth` schema; migrations in order. */
export const authStore: ServiceStore = {
  schema: 'auth',
  migrations: [
    createSchemaMigration('auth'),
    AuthTables1763700100000,
    CollectorCredentials1764400000000,
    CredentialLimits1764800000000,
    IdempotencyKeys1764900000000,
    AuditLog1765000000000,
  ],
  entities: [],
};
