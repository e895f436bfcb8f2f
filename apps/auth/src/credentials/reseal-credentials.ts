import { credentialSecretAad } from '@meter/contracts';
import { activeKey, associatedData, needsReseal, openText, reseal, SealedDataError, sealedKeyId, type KeyRing } from '@meter/crypto';
import type { DataSource } from 'typeorm';
import { appendEvents, assertUpdated, ConcurrencyConflict } from '../events/event-store';
import { newEvent } from '../events/new-event';
import { replaceSealedSecret, sealedSecrets, type SealedSecretRow } from './credential-store';

/** What the stored credential secrets look like to a key ring. */
export interface SealedSecretsCheck {
  activeKey: string;
  /** Stored secrets per key id they name; after a rotation only the active key should remain. */
  sealedByKey: Record<string, number>;
  /** Stored secrets the ring does not open (another ring's, a removed key, altered), per key id they name. */
  unreadableByKey: Record<string, number>;
  unreadable: number;
}

export interface ResealReport extends SealedSecretsCheck {
  resealed: number;
}

/** Text that is not a sealed value at all names no key. */
const MALFORMED = '(malformed)';

const liveSecrets = (dataSource: DataSource) => sealedSecrets(dataSource.manager);

const secretAd = (row: SealedSecretRow) => associatedData(credentialSecretAad(row.org_id, row.id));

function keyIdOf(sealed: string): string {
  try {
    return sealedKeyId(sealed);
  } catch {
    return MALFORMED;
  }
}

/**
 * Opens every stored credential secret with the ring and counts what does
 * not open, by the key id it names: what the gateways would log as
 * unreadable. Counting key ids alone is not enough: two rings may both
 * have a key `k1` (development rings made before key ids were unique).
 */
export async function checkCredentialSecrets(dataSource: DataSource, ring: KeyRing): Promise<SealedSecretsCheck> {
  const sealedByKey: Record<string, number> = {};
  const unreadableByKey: Record<string, number> = {};
  let unreadable = 0;
  for (const row of await liveSecrets(dataSource)) {
    const id = keyIdOf(row.sealed_secret);
    sealedByKey[id] = (sealedByKey[id] ?? 0) + 1;
    try {
      openText(ring, row.sealed_secret, secretAd(row));
    } catch (error) {
      if (!(error instanceof SealedDataError) && !(error instanceof TypeError)) throw error;
      unreadableByKey[id] = (unreadableByKey[id] ?? 0) + 1;
      unreadable += 1;
    }
  }
  return { activeKey: activeKey(ring).id, sealedByKey, unreadableByKey, unreadable };
}

/**
 * Re-seals every stored credential secret that is not under the ring's
 * active key, one credential per transaction with a
 * `credential.secret_resealed` event, so the gateways follow. Secrets the
 * ring cannot open are left as they are and counted. Safe to re-run; a
 * credential changed meanwhile is read again.
 */
export async function resealCredentials(dataSource: DataSource, ring: KeyRing): Promise<ResealReport> {
  let resealed = 0;
  const unopenable = new Set<string>();
  for (let attempt = 0; attempt < 3; attempt++) {
    const stale = (await liveSecrets(dataSource)).filter((row) => !unopenable.has(row.id) && keyIdOf(row.sealed_secret) !== activeKey(ring).id);
    if (!stale.length) break;
    for (const row of stale) {
      try {
        if (await resealOne(dataSource, ring, row)) resealed += 1;
      } catch (error) {
        if (error instanceof SealedDataError) unopenable.add(row.id);
        else if (!(error instanceof ConcurrencyConflict)) throw error;
      }
    }
  }
  return { resealed, ...(await checkCredentialSecrets(dataSource, ring)) };
}

async function resealOne(dataSource: DataSource, ring: KeyRing, row: SealedSecretRow): Promise<boolean> {
  if (!needsReseal(ring, row.sealed_secret)) return false;
  const sealed = reseal(ring, row.sealed_secret, secretAd(row));
  return dataSource.transaction(async (manager) => {
    assertUpdated(await replaceSealedSecret(manager, row.id, row.version, sealed), row.id);
    await appendEvents(manager, [
      newEvent(
        'credential.secret_resealed',
        { aggregateId: row.id, orgId: row.org_id, version: row.version + 1 },
        { credential_id: row.id, access_key: row.access_key, sealed_secret: sealed },
      ),
    ]);
    return true;
  });
}

/** The check as the CLI prints it (docs/management-api.md). */
export function sealedSecretsSummary(check: SealedSecretsCheck) {
  return {
    active_key: check.activeKey,
    sealed_by_key: check.sealedByKey,
    unreadable: check.unreadable,
    unreadable_by_key: check.unreadableByKey,
  };
}
