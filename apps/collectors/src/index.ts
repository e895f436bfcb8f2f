/**
 * The collectors service's public face: what the CLI, the management API and
 * the tests may use. Everything else under apps/collectors/src is private to it.
 */
export { collectorsStore } from './migrations';
export { listUnmatchedUplinks, type UnmatchedUplink } from './uplinks/unmatched-uplinks';
export { COLLECTOR_PASSWORD_SCHEME, collectorsApiDocument } from './api/collectors-api';
