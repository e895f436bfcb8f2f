import { Inject, Injectable, Logger } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/nats-core';
import { APP_CONFIG, type AppConfig } from '@meter/config';
import { EXPORT_OPERATIONS, exportIntegrationListReply, integrationsSubject, type BusNames, type Integration, type VaultEntryUse } from '@meter/contracts';
import { BUS, NATS, requestRpc, RpcUnavailable } from '@meter/messaging';
import { integrationsProblem, integrationsUnavailable } from '../integrations/integrations-problem';

/** The (namespace, type) pairs the organization's active integrations open, with the integrations: what a vault delete must not remove. */
export function entryUses(integrations: readonly Pick<Integration, 'id' | 'namespace' | 'storage_type' | 'status'>[]): VaultEntryUse[] {
  const uses = new Map<string, VaultEntryUse>();
  for (const integration of integrations) {
    if (integration.status !== 'active') continue;
    const key = `${integration.namespace}\u0000${integration.storage_type}`;
    const use = uses.get(key) ?? { namespace: integration.namespace, type: integration.storage_type, integration_ids: [] };
    use.integration_ids.push(integration.id);
    uses.set(key, use);
  }
  return [...uses.values()];
}

/**
 * Asks the integrations service which vault entries its active integrations
 * use, before a vault delete. No answer in time is 503 (nothing deleted);
 * no integrations process at all (nothing subscribed) means nothing can use
 * an entry, so none is in use.
 */
@Injectable()
export class VaultEntryUsers {
  private readonly logger = new Logger('vault-entry-users');

  constructor(
    @Inject(NATS) private readonly nc: NatsConnection,
    @Inject(BUS) private readonly bus: BusNames,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async inUse(orgId: string, actor: string): Promise<VaultEntryUse[]> {
    let reply;
    try {
      reply = await requestRpc(
        this.nc,
        integrationsSubject(this.bus, EXPORT_OPERATIONS.list),
        { org_id: orgId, actor },
        exportIntegrationListReply,
        this.config.INTEGRATIONS_REQUEST_TIMEOUT_MS,
      );
    } catch (error) {
      if (error instanceof RpcUnavailable && error.noResponders) return [];
      this.logger.warn(`integrations list before a vault delete: ${error instanceof Error ? error.message : String(error)}`);
      throw integrationsUnavailable();
    }
    if (!reply.ok) throw integrationsProblem(reply.error);
    return entryUses(reply.result.integrations);
  }
}
