import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** A module that runs `sql`, as a string or a template. */
const running = (sql: string, quote: "'" | '`' = '`') => `export const run = (db: { query(sql: string): unknown }) => db.query(${quote}${sql}${quote});\n`;
/** A module that imports `name` from `path` and uses it. */
const importing = (name: string, path: string) => `import { ${name} } from '${path}';\nexport const x = ${name};\n`;

/** The lint rules that keep apps/ingest the one writer of the ingest schema (eslint.config.mjs). */
describe('npm run lint: only apps/ingest writes the ingest schema', () => {
  const eslint = new ESLint({ cwd: process.cwd() });
  const messagesOf = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax' || m.ruleId === 'no-restricted-imports').map((m) => m.message);
  };

  it.each([
    [
      'the integrations deleting from the change log',
      'apps/integrations/src/exports/fixture.ts',
      running('DELETE FROM ingest.reading_changes WHERE org_id = $1', "'"),
    ],
    ['the query package updating readings', 'libs/read-model/src/fixture.ts', running('UPDATE ingest.readings SET delta = 0\n WHERE org_id = $1')],
    ['the gateway inserting a device', 'apps/gateway/src/devices/fixture.ts', running('INSERT INTO ingest.devices (org_id, device_id) VALUES ($1, $2)')],
    ['the CLI truncating episodes', 'apps/cli/src/commands/fixture.ts', running('TRUNCATE ingest.alert_episodes')],
    ['a benchmark creating a partition', 'bench/fixture.ts', running('SELECT ingest.ensure_readings_partition($1::timestamptz)')],
    ['a script indexing readings', 'scripts/fixture.ts', running('CREATE INDEX CONCURRENTLY r ON ingest.readings (read_at)')],
    ['a test helper altering a table', 'test/harness/fixture.ts', running('ALTER TABLE ingest.devices ADD COLUMN x int')],
  ])('refuses %s', async (_, filePath, code) => {
    const messages = await messagesOf(filePath, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/only apps\/ingest writes the ingest schema/);
  });

  it.each([
    ['the gateway importing @meter/ingest', 'apps/gateway/src/fixture.ts', importing('writeBatch', '@meter/ingest')],
    ["the integrations importing ingest's face by path", 'apps/integrations/src/exports/fixture.ts', importing('writeBatch', '../../../ingest/src')],
    ['a lib importing @meter/ingest', 'libs/read-model/src/fixture.ts', importing('ingestStore', '@meter/ingest')],
  ])('refuses %s', async (_, filePath, code) => {
    const messages = await messagesOf(filePath, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/read it through @meter\/read-model/);
  });

  it('accepts ingest writing, readers reading, and the CLI, benchmarks and tests writing through @meter/ingest', async () => {
    expect(await messagesOf('apps/ingest/src/fixture.ts', running('DELETE FROM ingest.reading_changes WHERE seq = $1'))).toEqual([]);
    expect(await messagesOf('libs/read-model/src/fixture.ts', running('SELECT read_at, cum FROM ingest.readings r WHERE r.org_id = $1 FOR UPDATE'))).toEqual(
      [],
    );
    expect(
      await messagesOf('apps/integrations/src/fixture.ts', running('SELECT created_at FROM ingest.devices d JOIN integrations.x i ON i.id = d.org_id')),
    ).toEqual([]);
    expect(await messagesOf('apps/cli/src/fixture.ts', importing('rebuildDevice', '@meter/ingest'))).toEqual([]);
    expect(await messagesOf('bench/fixture.ts', importing('writeBatch', '@meter/ingest'))).toEqual([]);
    expect(await messagesOf('apps/gateway/src/fixture.int.spec.ts', importing('writeBatch', '@meter/ingest'))).toEqual([]);
    expect(await messagesOf('libs/read-model/src/fixture.int.spec.ts', running('INSERT INTO ingest.devices (org_id) VALUES ($1)'))).toEqual([]);
  });
});
