import { randomBytes } from 'node:crypto';
import { headers, type NatsConnection } from '@nats-io/nats-core';
import { RPC_DEADLINE_HEADER, vaultSubject, type BusNames, type VaultEntryType, type VaultOperation } from '@meter/contracts';

/** Distinctive secret values, so a dump or a stream can be searched for them; the non-secret fields (listed in clear) are plain. */
export function secretsFor(tag: string): Record<VaultEntryType, Record<string, string>> {
  const s = (name: string) => `SECRET-${tag}-${name}-${randomBytes(6).toString('hex')}`;
  return {
    s3_identity: { access_key: s('ak'), secret_key: s('sk'), end_point: 'https://s3.eu-west-1.amazonaws.com', region: 'eu-west-1' },
    azure_identity: {
      tenant_id: `tenant-${tag}-72f988bf-86f1-41af-91ab`,
      client_id: `client-${tag}-04b07795-8ddb-461a-bbee`,
      client_secret: s('cs'),
      connection_string: `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${s('accountkey')};EndpointSuffix=core.windows.net`,
    },
    gcs_identity: { credentials_json: JSON.stringify({ type: 'service_account', private_key: s('pk') }), project_id: `project-${tag}` },
    api_token_identity: { token: s('token') },
  };
}

/** The secret parts of a data object (endpoints and regions are not secret; account keys inside connection strings are). */
export function secretNeedles(data: Record<string, string>): string[] {
  return Object.values(data).flatMap((value) => value.match(/SECRET-[A-Za-z0-9_-]+-[a-z]+-[0-9a-f]{12}/g) ?? []);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type VaultReply = { ok: true; result: any } | { ok: false; error: { code: string; detail: string; errors?: { field: string; message: string }[] } };

/** One vault request; `deadline` (ms since the epoch) goes in its deadline header. */
export async function vaultRequest(nc: NatsConnection, bus: BusNames, operation: VaultOperation, payload: unknown, timeout = 5000, deadline?: number) {
  const h = headers();
  if (deadline !== undefined) h.set(RPC_DEADLINE_HEADER, String(deadline));
  const reply = await nc.request(vaultSubject(bus, operation), JSON.stringify(payload), { timeout, headers: h });
  return JSON.parse(reply.string()) as VaultReply;
}

/** A 32-byte key ring entry in the VAULT_ROOT_KEYRING text format. */
export const ringEntry = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
