import type { VaultError } from '@meter/contracts';
import { RpcFailure } from '@meter/messaging';

/** A typed failure the NATS handler sends back as `{ok: false, error}`. */
export class VaultFailure extends RpcFailure<VaultError> {}

export const entryNotFound = () => new VaultFailure({ code: 'not_found', detail: 'no vault entry with this id in the organization' });

export const entryInUse = (entry: { namespace: string; type: string }, integrationIds: string[]) =>
  new VaultFailure({
    code: 'in_use',
    detail: `the ${entry.type} entry of namespace ${entry.namespace} is used by active integrations ${integrationIds.join(', ')}: pause or delete them first`,
    integration_ids: integrationIds,
  });
