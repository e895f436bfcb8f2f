import { z } from 'zod';
import { orgIdSchema } from './ids';
import type { BusNames } from './bus';
import { fieldError, rpcCommonErrors, rpcReply } from './rpc';

/**
 * The integrations service (batch exports, webhook deliveries) answers the
 * management API's integration and webhook routes over NATS request/reply
 * (libs/contracts/src/rpc.ts): auth forwards each call with the caller's
 * organization and admin, the integrations process owns the state. Only
 * auth may publish these subjects and only the integrations process may
 * subscribe to them (deploy/base/nats/vault-permissions.conf).
 */
export const INTEGRATIONS_RPC_PREFIX = 'integrations.rpc';

/** Every integrations replica subscribes in this queue group, so each request is answered once. */
export const INTEGRATIONS_QUEUE_GROUP = 'integrations';

/** `integrations.rpc.<operation>`, e.g. `integrations.rpc.export.create`. */
export function integrationsSubject(bus: BusNames, operation: string): string {
  return bus.subject(`${INTEGRATIONS_RPC_PREFIX}.${operation}`);
}

/** Who asks: the caller's organization and, for the audit trail, the admin. Every request carries it. */
export const integrationsCaller = z.object({
  org_id: orgIdSchema,
  actor: z.string().min(1).max(200),
});
export type IntegrationsCaller = z.infer<typeof integrationsCaller>;

/**
 * What went wrong, typed so auth maps it to problem+json (apps/auth,
 * integrations-problem.ts): validation_failed -> 400 with `errors`,
 * not_found -> 404, destination_check_failed -> 422, conflict -> 409,
 * vault_unavailable -> 503 (the vault did not answer; nothing changed),
 * deadline_exceeded -> 503 (nothing changed), bad_request and internal -> 500.
 */
export const integrationsError = z.discriminatedUnion('code', [
  z.object({ code: z.literal('validation_failed'), detail: z.string(), errors: z.array(fieldError).min(1) }),
  z.object({ code: z.literal('not_found'), detail: z.string() }),
  z.object({ code: z.literal('conflict'), detail: z.string() }),
  z.object({ code: z.literal('destination_check_failed'), detail: z.string() }),
  z.object({ code: z.literal('vault_unavailable'), detail: z.string() }),
  ...rpcCommonErrors,
]);
export type IntegrationsError = z.infer<typeof integrationsError>;

/** The reply schema of one integrations operation. */
export const integrationsReply = <R extends z.ZodType>(result: R) => rpcReply(result, integrationsError);
