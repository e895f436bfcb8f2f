import { offsetAt, type TimeZone } from './time-zone';

/** The local wall clock of an instant as `YYYY-MM-DDTHH:MM:SS`, no offset. */
export function localDateTime(epochMs: number, zone: TimeZone): string {
  return new Date(epochMs + offsetAt(epochMs, zone)).toISOString().slice(0, 19);
}

/**
 * RFC 3339 with the zone's offset at that instant, `2026-03-29T03:00:00+02:00`:
 * a reader sees the local hour and the instant at once (the hour repeated on
 * a DST night is told apart by its offset).
 */
export function rfc3339InZone(epochMs: number, zone: TimeZone): string {
  const offsetMinutes = Math.round(offsetAt(epochMs, zone) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const magnitude = Math.abs(offsetMinutes);
  const offset = `${sign}${String(Math.floor(magnitude / 60)).padStart(2, '0')}:${String(magnitude % 60).padStart(2, '0')}`;
  return `${localDateTime(epochMs, zone)}${offset}`;
}
