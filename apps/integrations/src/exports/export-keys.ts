import { randomUUID } from 'node:crypto';
import type { ExportFormat } from '@meter/contracts';

/** `<prefix>dt=<date>/consumption.<format>` and `<prefix>dt=<date>/_manifest.json`: a day exported again overwrites both. */
export function dayKeys(prefix: string, date: string, format: ExportFormat): { data: string; manifest: string } {
  return { data: `${prefix}dt=${date}/consumption.${format}`, manifest: `${prefix}dt=${date}/_manifest.json` };
}

/** The small object an activation writes and deletes to prove the destination takes writes. */
export function checkKey(prefix: string): string {
  return `${prefix}_meter_check_${randomUUID()}.txt`;
}
