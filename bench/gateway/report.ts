import { readFileSync, writeFileSync } from 'node:fs';

export interface Measurement {
  label: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Answers other than 2xx, errors and timeouts. */
  errors?: number;
  /** Server CPU time per request (user + system), in µs. */
  cpuMicrosPerRequest?: number;
  statuses: string;
}

const HEADING = '## Gateway';

/** The "Gateway" section of docs/benchmarks.md, replaced in place (other sections are left as they are). */
export function writeGatewaySection(path: string, section: string): void {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    text = '# Benchmarks\n\nMeasured numbers, written by the `bench:*` scripts. Not tests: nothing here fails a build.\n';
  }
  const start = text.indexOf(`\n${HEADING}\n`);
  if (start < 0) {
    writeFileSync(path, `${text.trimEnd()}\n\n${section.trim()}\n`);
    return;
  }
  const next = text.indexOf('\n## ', start + HEADING.length + 1);
  const rest = next < 0 ? '' : text.slice(next);
  writeFileSync(path, `${text.slice(0, start).trimEnd()}\n\n${section.trim()}\n${rest}`);
}

/** The latency phase: the same offered load to each target. */
export function latencyTable(rows: (Measurement & { offered: number })[]): string {
  return [
    '| target | offered req/s | answered req/s | p50 (ms) | p99 (ms) | server CPU per request (µs) | answers |',
    '|---|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${r.offered} | ${Math.round(r.requestsPerSecond)} | ${r.p50} | ${r.p99} | ${r.cpuMicrosPerRequest === undefined ? '–' : Math.round(r.cpuMicrosPerRequest)} | ${r.statuses} |`,
    ),
  ].join('\n');
}

export function table(rows: Measurement[]): string {
  return [
    '| target | req/s | p50 (ms) | p99 (ms) | server CPU per request (µs) | answers |',
    '|---|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.label} | ${Math.round(r.requestsPerSecond)} | ${r.p50} | ${r.p99} | ${r.cpuMicrosPerRequest === undefined ? '–' : Math.round(r.cpuMicrosPerRequest)} | ${r.statuses} |`,
    ),
  ].join('\n');
}
