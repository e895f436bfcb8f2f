import { isUuid } from '@meter/contracts';
import type { AlertCursor } from '@meter/read-model';
import { signToken, verifyToken } from '../paging/page-token';

const ALERTS = 'meter/alerts-page-token/v1';

/** The alert list's `next_page_token`: the organization and the last episode of the page (newest first). */
export function signAlertPageToken(keys: readonly Uint8Array[], orgId: string, after: AlertCursor): string {
  return signToken(keys, ALERTS, { o: orgId, r: after.raisedAt, i: after.id });
}

/** Where to continue, or undefined when the token is not one we issued to this organization for alerts. */
export function verifyAlertPageToken(keys: readonly Uint8Array[], orgId: string, token: string): AlertCursor | undefined {
  const payload = verifyToken(keys, ALERTS, token);
  if (!payload || payload.o !== orgId) return undefined;
  const { r, i } = payload;
  return typeof r === 'number' && Number.isFinite(r) && typeof i === 'string' && isUuid(i) ? { raisedAt: r, id: i } : undefined;
}
