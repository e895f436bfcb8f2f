/** The episode codes of the alert filter (libs/consumption EPISODE_CODES; a unit test keeps them equal). */
export const EPISODE_CODES = ['LEAK', 'BURST', 'NO_FLOW', 'NO_COMMUNICATION', 'TAMPER', 'LOW_BATTERY', 'REVERSE_FLOW', 'DRY', 'MAGNETIC', 'OTHER'] as const;

/** Units a device page can show (section 10), sent as X-Unit in their ASCII spelling. */
export const UNIT_CHOICES = [
  { label: 'm³', header: 'm3' },
  { label: 'L', header: 'L' },
  { label: 'gal', header: 'gal' },
  { label: 'ft³', header: 'ft3' },
  { label: 'CCF', header: 'CCF' },
] as const;

export type Quality = 'ACTUAL' | 'ESTIMATED' | 'MISSING';

/** One row of a chart's table: the local date, the value as the gateway wrote it, and its quality. */
export interface ChartRow {
  date: string;
  value: string;
  quality: Quality | '';
}

/** `YYYY-MM-DD` of a history point's `YYYY-MM-DD 00:00:00.000`. */
export function dayOf(date: string): string {
  return date.slice(0, 10);
}

/** The rows of a daily history series, oldest first, values untouched (the gateway's digits). */
export function dailyRows(points: readonly { date: string; value: string; quality: Quality }[]): ChartRow[] {
  return points.map((p) => ({ date: dayOf(p.date), value: p.value, quality: p.quality }));
}

/** The days of a three-month series, oldest first. */
export function threeMonthRows(months: readonly { by_days: readonly { date: string; value: string; quality: Quality }[] }[]): ChartRow[] {
  return months.flatMap((m) => m.by_days.map((d) => ({ date: d.date, value: d.value, quality: d.quality })));
}

/** uPlot's columns: x as UTC seconds of each local date (the chart draws it in UTC, so the day stays the day), y as numbers. */
export function chartColumns(rows: readonly ChartRow[]): [number[], number[]] {
  return [rows.map((r) => Date.parse(`${r.date}T00:00:00Z`) / 1000), rows.map((r) => Number(r.value))];
}

/** The periods of the history selector: the gateway's names, then the 12 months before the current one. */
export function periodChoices(today: string): { value: string; label: string }[] {
  const [year, month] = today.split('-').map(Number);
  const months: { value: string; label: string }[] = [];
  for (let back = 1; back <= 12; back++) {
    const index = year * 12 + (month - 1) - back;
    const value = `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
    months.push({ value, label: value });
  }
  return [{ value: '7D', label: 'Last 7 days' }, { value: '15D', label: 'Last 15 days' }, { value: 'CURRENT_MONTH', label: 'This month' }, ...months];
}

/** The last reading of the device list: `2026-11-27 16:00 · 1234.567 m³`, or `no reading yet`. */
export function lastReadingText(reading: { read_at: string; value: string } | null, unit: string, format: (iso: string) => string): string {
  return reading ? `${format(reading.read_at)} · ${reading.value} ${unit}` : 'no reading yet';
}
