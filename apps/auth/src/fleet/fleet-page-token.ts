import { isUuid } from '@meter/contracts';
import { validationFailed } from '@meter/http';
import type { AlertCursor } from '@meter/read-model';

/**
 * The fleet lists' `next_page_token`: where the next page starts (keyset), as
 * opaque base64url. Every query is scoped to the caller's organization, so a
 * token edited by hand only moves within the caller's own list.
 */
export function devicePageToken(afterId: number): string {
  return Buffer.from(JSON.stringify({ d: afterId })).toString('base64url');
}

export function alertPageToken(after: AlertCursor): string {
  return Buffer.from(JSON.stringify({ r: after.raisedAt, i: after.id })).toString('base64url');
}

/** The device id a page continues after; 400 naming `next_page_token` when it is not one of ours. */
export function readDevicePageToken(raw: unknown): number {
  const { d } = decode(raw);
  if (typeof d !== 'number' || !Number.isSafeInteger(d) || d < 0) throw badToken();
  return d;
}

export function readAlertPageToken(raw: unknown): AlertCursor {
  const { r, i } = decode(raw);
  if (typeof r !== 'number' || !Number.isFinite(r) || typeof i !== 'string' || !isUuid(i)) throw badToken();
  return { raisedAt: r, id: i };
}

function decode(raw: unknown): Record<string, unknown> {
  if (typeof raw !== 'string' || raw.length > 200 || !/^[A-Za-z0-9_-]+$/.test(raw)) throw badToken();
  try {
    const value: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (typeof value === 'object' && value !== null) return value as Record<string, unknown>;
  } catch {
    // not JSON: refused below
  }
  throw badToken();
}

const badToken = () => validationFailed([{ field: 'next_page_token', message: 'is not a token of this list' }]);
