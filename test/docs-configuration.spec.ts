import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { envSchema } from '@meter/config';

/** The variables a Markdown section's table names in its first column (`NAME`, or several as `A` / `B`). */
function tableVariables(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no section ${heading}`);
  const end = markdown.indexOf('\n## ', start + heading.length + 2);
  const rows = markdown
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .filter((line) => line.startsWith('| `'));
  return rows.flatMap((row) => [...row.split('|')[1].matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]));
}

/** What a README section's table misses of the schema, and what it names that the schema does not have. */
function configurationTableProblems(markdown: string, heading: string, known: readonly string[]): string[] {
  const listed = new Set(tableVariables(markdown, heading));
  return [
    ...known.filter((name) => !listed.has(name)).map((name) => `${name} is not in the table`),
    ...[...listed].filter((name) => !known.includes(name)).map((name) => `${name} is in the table but not in the config schema`),
  ];
}

const VARIABLES = Object.keys(envSchema.shape);

describe("README's configuration table", () => {
  it('lists every variable of the config schema (libs/config/src/env.schema.ts), and no other', () => {
    expect(configurationTableProblems(readFileSync('README.md', 'utf8'), '## Configuration', VARIABLES)).toEqual([]);
  });

  it('fails for a variable the table lacks or one the schema does not know', () => {
    const readme = [
      '## Configuration',
      '',
      '| variable | default | meaning |',
      '|---|---|---|',
      '| `NODE_ENV` / `LOG_LEVEL` | x | y |',
      '| `GONE_VARIABLE` | x | y |',
      '',
      '## Layout',
    ].join('\n');
    expect(configurationTableProblems(`intro\n${readme}`, '## Configuration', ['NODE_ENV', 'LOG_LEVEL', 'DATABASE_URL'])).toEqual([
      'DATABASE_URL is not in the table',
      'GONE_VARIABLE is in the table but not in the config schema',
    ]);
  });
});
