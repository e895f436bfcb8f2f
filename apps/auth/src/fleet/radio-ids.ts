import type { ExternalIds } from '@meter/contracts';
import type { FieldError } from '@meter/http';

/** A device's radio ids as the read model holds them (null: not set). */
export interface StoredRadioIds {
  dev_eui: string | null;
  wmbus_id: string | null;
}

export type RadioIdKind = keyof StoredRadioIds;

const KINDS: readonly RadioIdKind[] = ['dev_eui', 'wmbus_id'];

/** The ids a request sets to a value (an absent member keeps the stored id, `null` removes it: neither can collide). */
export function radioIdsSet(request: ExternalIds): { kind: RadioIdKind; id: string }[] {
  return KINDS.flatMap((kind) => {
    const id = request[kind];
    return typeof id === 'string' ? [{ kind, id }] : [];
  });
}

/** One field error per requested id that another device of the organization carries (a 409 `external_id_taken`). */
export function takenRadioIds(deviceId: number, holders: readonly { kind: RadioIdKind; id: string; holder: number | null }[]): FieldError[] {
  return holders
    .filter((h) => h.holder !== null && h.holder !== deviceId)
    .map((h) => ({ field: `external_ids.${h.kind}`, message: `${h.id} is the radio id of device ${h.holder}` }));
}

/** The stored ids once the request is applied. */
export function withRadioIds(stored: StoredRadioIds, request: ExternalIds): StoredRadioIds {
  return {
    dev_eui: request.dev_eui !== undefined ? request.dev_eui : stored.dev_eui,
    wmbus_id: request.wmbus_id !== undefined ? request.wmbus_id : stored.wmbus_id,
  };
}

/** True when the stored ids already are what the request asks for. */
export function radioIdsApplied(stored: StoredRadioIds, request: ExternalIds): boolean {
  const wanted = withRadioIds(stored, request);
  return wanted.dev_eui === stored.dev_eui && wanted.wmbus_id === stored.wmbus_id;
}
