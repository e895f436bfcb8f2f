/**
 * The integrations service's public face: what the CLI and the tests may use.
 * Everything else under apps/integrations/src is private to the service.
 */
export { IntegrationsModule } from './integrations.module';
export { integrationsStore } from './migrations';
