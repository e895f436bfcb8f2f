import type { VaultError } from '@meter/contracts';
import { RpcFailure } from '@meter/messaging';

/** A typed failure the NATS handler sends back as `{ok: false, error}`. */
export class VaultFailure extends RpcFailure<VaultError> {}

export const entryNotFound = () => new VaultFailure({ code: 'not_found', detail: 'no vault entry with this id in the organization' });
