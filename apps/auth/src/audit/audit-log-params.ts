import { badPageToken, decodePageToken, encodePageToken } from '../common/page-token';

const SEQ = /^[1-9][0-9]{0,18}$/;

/** `next_page_token`: the entry the next page continues before (common/page-token.ts). */
export function auditPageToken(beforeSeq: string): string {
  return encodePageToken({ b: beforeSeq });
}

export function readAuditPageToken(raw: unknown): bigint | undefined {
  if (raw === undefined) return undefined;
  const { b } = decodePageToken(raw, 100);
  if (typeof b !== 'string' || !SEQ.test(b)) throw badPageToken();
  return BigInt(b);
}

/** An entry id of the path: digits only, else the entry is unknown (404), as for another organization's. */
export function auditEntrySeq(raw: string): bigint | undefined {
  return SEQ.test(raw) ? BigInt(raw) : undefined;
}
