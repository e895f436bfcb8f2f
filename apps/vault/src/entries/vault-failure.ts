import type { VaultError } from '@meter/contracts';

/** A typed failure the NATS handler sends back as `{ok: false, error}`. */
export class VaultFailure extends Error {
  constructor(readonly error: VaultError) {
    super(error.detail);
  }
}

export const entryNotFound = () => new VaultFailure({ code: 'not_found', detail: 'no vault entry with this id in the organization' });
