import { validationFailed } from '@meter/http';

/**
 * `next_page_token`: the id the next page continues before, as opaque base64url. Every
 * query is scoped to the caller's organization, so an edited token only moves within it.
 */
export function auditPageToken(beforeSeq: string): string {
  return Buffer.from(JSON.stringify({ b: beforeSeq })).toString('base64url');
}

export function readAuditPageToken(raw: unknown): bigint | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === 'string' && raw.length <= 100 && /^[A-Za-z0-9_-]+$/.test(raw)) {
    try {
      const { b } = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as { b?: unknown };
      if (typeof b === 'string' && /^[1-9][0-9]{0,18}$/.test(b)) return BigInt(b);
    } catch {
      // not JSON: refused below
    }
  }
  throw validationFailed([{ field: 'next_page_token', message: 'is not a token of this list' }]);
}

/** An entry id of the path: digits only, else the entry is unknown (404), as for another organization's. */
export function auditEntrySeq(raw: string): bigint | undefined {
  return /^[1-9][0-9]{0,18}$/.test(raw) ? BigInt(raw) : undefined;
}
