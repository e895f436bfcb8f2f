import { Inject, Injectable } from '@nestjs/common';
import { EXPORT_OPERATIONS, exportIntegrationListReply, type Integration, type VaultEntryUse } from '@meter/contracts';
import { IntegrationsClient } from '../integrations/integrations-client';

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
  constructor(@Inject(IntegrationsClient) private readonly integrations: IntegrationsClient) {}

  async inUse(orgId: string, actor: string): Promise<VaultEntryUse[]> {
    const { integrations } = await this.integrations.call(EXPORT_OPERATIONS.list, { org_id: orgId, actor }, {}, exportIntegrationListReply, {
      withoutService: () => ({ integrations: [] }),
    });
    return entryUses(integrations);
  }
}
