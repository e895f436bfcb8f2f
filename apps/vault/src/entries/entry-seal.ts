import { associatedData, dataKeyRing, openText, seal } from '@meter/crypto';
import type { VaultEntryType } from '@meter/contracts';

/** Where a sealed value belongs; all of it is bound into the AEAD associated data. */
export interface EntryRef {
  org: string;
  entry: string;
  namespace: string;
  type: VaultEntryType;
  version: number;
}

/** Entries are sealed under the organization's data key, which never changes (rotation re-wraps it). */
const DATA_KEY_ID = 'dk1';

const entryAd = (ref: EntryRef) => associatedData({ org: ref.org, entry: ref.entry, namespace: ref.namespace, type: ref.type, version: ref.version });

export function sealEntry(dataKey: Uint8Array, ref: EntryRef, data: Readonly<Record<string, string>>): string {
  return seal(dataKeyRing(DATA_KEY_ID, dataKey), JSON.stringify(data), entryAd(ref));
}

/** Throws SealedDataError when the value was sealed for another row, organization or version, or altered. */
export function openEntry(dataKey: Uint8Array, ref: EntryRef, sealed: string): Record<string, string> {
  return JSON.parse(openText(dataKeyRing(DATA_KEY_ID, dataKey), sealed, entryAd(ref))) as Record<string, string>;
}
