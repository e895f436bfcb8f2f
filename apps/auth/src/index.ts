/**
 * The auth service's public face: what the CLI, the benchmarks and the tests
 * may use. Everything else under apps/auth/src is private to the service
 * (npm run lint refuses imports of it from outside).
 */
export { AuthModule } from './auth.module';
export { authStore } from './migrations';
export { authDataSource } from './auth-data-source';
export { createOrganization, EmailTaken, type CreatedOrganization } from './organizations/create-organization';
export { newOrganization, type NewOrganization } from './organizations/organization-input';
export { deactivateAdmin } from './organizations/deactivate-admin';
export { adminByEmail } from './organizations/organization-store';
export { loadCredentialRing } from './credentials/credential-keyring';
export { checkCredentialSecrets, resealCredentials, sealedSecretsSummary, type ResealReport, type SealedSecretsCheck } from './credentials/reseal-credentials';
export { BEARER_SCHEME, CONSOLE_SESSION_SCHEME, MANAGEMENT_API, managementApiDocument } from './api/management-api';
