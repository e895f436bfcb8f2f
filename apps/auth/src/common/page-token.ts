import { validationFailed } from '@meter/http';

/**
 * The management API's `next_page_token`s: where the next page starts
 * (keyset), as opaque base64url JSON. Every query is scoped to the caller's
 * organization, so a token edited by hand only moves within the caller's own list.
 */
export function encodePageToken(position: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

/** The position a token holds; 400 naming `next_page_token` when it is not one of ours. */
export function decodePageToken(raw: unknown, maxLength = 200): Record<string, unknown> {
  if (typeof raw !== 'string' || raw.length > maxLength || !/^[A-Za-z0-9_-]+$/.test(raw)) throw badPageToken();
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (typeof value === 'object' && value !== null) return value as Record<string, unknown>;
  } catch {
    // not JSON: refused below
  }
  throw badPageToken();
}

export const badPageToken = () => validationFailed([{ field: 'next_page_token', message: 'is not a token of this list' }]);
