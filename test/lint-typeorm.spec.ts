import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The lint rule that keeps TypeORM used through its public API (eslint.config.mjs). */
describe('npm run lint: TypeORM through its public API', () => {
  const eslint = new ESLint({ cwd: process.cwd() });
  const messagesOf = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return result.messages.filter((m) => m.ruleId === 'no-restricted-properties').map((m) => m.message);
  };

  it.each([
    ["the driver's master pool", 'export const pool = (ds: { driver: { master: unknown } }) => ds.driver.master;\n'],
    ["a runner's own connection field", 'export const client = (runner: { databaseConnection: unknown }) => runner.databaseConnection;\n'],
    ['a connection taken from the driver', 'export const take = (driver: { obtainMasterConnection(): unknown }) => driver.obtainMasterConnection();\n'],
  ])('refuses %s', async (_, code) => {
    const messages = await messagesOf('libs/persistence/src/fixture.ts', code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/QueryRunner\.connect\(\)/);
  });

  it("accepts a runner's connect()", async () => {
    expect(
      await messagesOf('apps/integrations/src/fixture.ts', 'export const client = (runner: { connect(): Promise<unknown> }) => runner.connect();\n'),
    ).toEqual([]);
  });
});
