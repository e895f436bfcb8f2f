import { isUuid } from '@meter/contracts';
import type { AlertCursor } from '@meter/read-model';
import { badPageToken, decodePageToken, encodePageToken } from '../common/page-token';

/** The fleet lists' `next_page_token`s (common/page-token.ts). */
export function devicePageToken(afterId: number): string {
  return encodePageToken({ d: afterId });
}

export function alertPageToken(after: AlertCursor): string {
  return encodePageToken({ r: after.raisedAt, i: after.id });
}

/** The device id a page continues after; 400 naming `next_page_token` when it is not one of ours. */
export function readDevicePageToken(raw: unknown): number {
  const { d } = decodePageToken(raw);
  if (typeof d !== 'number' || !Number.isSafeInteger(d) || d < 0) throw badPageToken();
  return d;
}

export function readAlertPageToken(raw: unknown): AlertCursor {
  const { r, i } = decodePageToken(raw);
  if (typeof r !== 'number' || !Number.isFinite(r) || typeof i !== 'string' || !isUuid(i)) throw badPageToken();
  return { raisedAt: r, id: i };
}
