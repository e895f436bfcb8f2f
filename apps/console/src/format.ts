/** `2026-11-27 16:05` in the browser's zone (or `zone`), or `—` for none. */
export function formatDateTime(iso: string | null | undefined, zone?: string): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

/** `1.2 kB`-style sizes for export files. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = -1;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** A list for a table cell: `a, b`, or `—` when empty. */
export function formatList(items: readonly string[], empty = '—'): string {
  return items.length === 0 ? empty : items.join(', ');
}

/** The CIDR text box's content as the API's list: split on commas, spaces and new lines. */
export function parseCidrList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Today's date (`YYYY-MM-DD`) in a zone, `days` before. */
export function localDate(zone: string, daysBefore = 0, now = new Date()): string {
  const shifted = new Date(now.getTime() - daysBefore * 86_400_000);
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(shifted);
}

/** A JSON text indented for reading; text that is not JSON as it is. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
