/**
 * The vault service's public face: what the CLI and the tests may use.
 * Everything else under apps/vault/src is private to the service.
 */
export { VaultModule } from './vault.module';
export { vaultStore } from './migrations';
export { rewrapDataKeys, type RewrapReport } from './keys/rewrap-data-keys';
export { rootKeyRingSource } from './keys/root-key-ring';
