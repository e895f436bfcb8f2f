import { DEFAULT_MAX_SKEW_SECONDS } from './constants';

/**
 * True when the request timestamp is within `maxSkewSeconds` of the server
 * clock in either direction: `|nowSeconds - timestamp| <= maxSkewSeconds`
 * (300 s by default, so 300 passes and 301 fails). Non-finite input gives
 * `false`; never throws.
 */
export function timestampWithinSkew(timestamp: number, nowSeconds: number, maxSkewSeconds: number = DEFAULT_MAX_SKEW_SECONDS): boolean {
  if (!Number.isFinite(timestamp) || !Number.isFinite(nowSeconds)) return false;
  if (!Number.isFinite(maxSkewSeconds) || maxSkewSeconds < 0) return false;
  return Math.abs(nowSeconds - timestamp) <= maxSkewSeconds;
}
