import type { NatsConnection } from '@nats-io/nats-core';
import { vaultOpenReply, vaultSubject, type BusNames, type ExportStorageType } from '@meter/contracts';
import { requestRpc, RpcUnavailable } from '@meter/messaging';

/** Who the vault's audit trail names for the openings of this process. */
export const VAULT_ACTOR = 'integrations:batch-export';

export type VaultFailureCode = 'vault_entry_missing' | 'vault_entry_unreadable' | 'vault_unavailable' | 'internal';

/** The vault did not give the entry: missing, unreadable, not answering, or an answer outside its contract. */
export class VaultIdentityFailure extends Error {
  constructor(
    readonly code: VaultFailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'VaultIdentityFailure';
  }
}

/**
 * Opens the organization's `(namespace, type)` entry over
 * `vault.internal.open` (this process is the vault's integration worker).
 * The plaintext goes straight into a storage client and is never stored,
 * logged or put on a run.
 */
export async function openStorageIdentity(
  nc: NatsConnection,
  bus: BusNames,
  entry: { orgId: string; namespace: string; type: ExportStorageType },
  timeoutMs: number,
): Promise<Record<string, string>> {
  let reply;
  try {
    reply = await requestRpc(
      nc,
      vaultSubject(bus, 'open'),
      { org_id: entry.orgId, actor: VAULT_ACTOR, namespace: entry.namespace, type: entry.type },
      vaultOpenReply,
      timeoutMs,
    );
  } catch (error) {
    if (error instanceof RpcUnavailable) throw new VaultIdentityFailure('vault_unavailable', 'the vault did not answer');
    throw new VaultIdentityFailure('internal', 'the vault gave an answer outside its contract');
  }
  if (reply.ok) return reply.result.data;
  switch (reply.error.code) {
    case 'not_found':
      throw new VaultIdentityFailure('vault_entry_missing', `the vault has no ${entry.type} entry in namespace ${entry.namespace}`);
    case 'unreadable':
      throw new VaultIdentityFailure('vault_entry_unreadable', `the vault entry ${entry.type} of namespace ${entry.namespace} cannot be opened; replace it`);
    case 'deadline_exceeded':
      throw new VaultIdentityFailure('vault_unavailable', 'the vault did not answer in time');
    default:
      throw new VaultIdentityFailure('internal', `the vault refused the request (${reply.error.code})`);
  }
}
