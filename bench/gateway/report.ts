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
export const RESULTS_START = '<!-- bench:gateway results: written by npm run bench:gateway -->';
export const RESULTS_END = '<!-- end of bench:gateway results -->';

/**
 * docs/benchmarks.md with the measured part of its Gateway section replaced:
 * between the two markers when present; otherwise everything from the heading
 * up to the first `###` subsection (the hand-written analysis stays), or a new
 * section at the end. Other sections are left as they are.
 */
export function withGatewayResults(text: string, results: string): string {
  const block = `${RESULTS_START}\n\n${results.trim()}\n\n${RESULTS_END}`;
  const from = text.indexOf(RESULTS_START);
  const to = text.indexOf(RESULTS_END);
  if (from >= 0 && to > from) return `${text.slice(0, from)}${block}${text.slice(to + RESULTS_END.length)}`;
  const start = text.indexOf(`\n${HEADING}\n`);
  if (start < 0) return `${text.trimEnd()}\n\n${HEADING}\n\n${block}\n`;
  const body = start + HEADING.length + 2;
  const ends = [text.indexOf('\n### ', body), text.indexOf('\n## ', body)].filter((i) => i >= 0);
  const end = ends.length ? Math.min(...ends) : text.length;
  return `${text.slice(0, body)}\n${block}\n${text.slice(end)}`;
}

export function writeGatewayResults(path: string, results: string): void {
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    text = '# Benchmarks\n\nMeasured numbers, written by the `bench:*` scripts. Not tests: nothing here fails a build.\n';
  }
  writeFileSync(path, withGatewayResults(text, results));
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
