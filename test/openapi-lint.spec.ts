import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { documentPath, PUBLIC_APIS } from '../scripts/openapi/documents';

const run = promisify(execFile);

/** The CLIs as `npm run lint:openapi` runs them: offline, without telemetry or update checks. */
async function lint(command: 'redocly' | 'spectral', args: string[]): Promise<string> {
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };
  try {
    return (await run(`node_modules/.bin/${command}`, args, { env, maxBuffer: 16 * 1024 * 1024 })).stdout;
  } catch (error) {
    // Both exit non-zero when they find problems; their report is still on stdout.
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    if (stdout?.trim()) return stdout;
    throw new Error(`${command} failed: ${stderr ?? String(error)}`);
  }
}

describe.each(PUBLIC_APIS)('docs/openapi/%s.json lints clean', (api) => {
  it("with Redocly's recommended rules (redocly.yaml)", async () => {
    const report = JSON.parse(await lint('redocly', ['lint', api, '--format=json'])) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
    };
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 60_000);

  it("with Spectral's spectral:oas rules (.spectral.yaml)", async () => {
    const results = JSON.parse(await lint('spectral', ['lint', documentPath(api), '--format=json', '--quiet'])) as {
      code: string;
      severity: number;
      message: string;
      path: string[];
    }[];
    // Severity 0 is an error, 1 a warning (2 and 3 are information and hints).
    const problems = results.filter((r) => r.severity <= 1).map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`);
    expect(problems).toEqual([]);
  }, 60_000);
});
