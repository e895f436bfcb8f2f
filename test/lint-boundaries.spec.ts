import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** A module that imports `name` from `path` and uses it: what the rule is shown. */
const importing = (name: string, path: string) => `import { ${name} } from '${path}';\nexport const x = ${name};\n`;

/** The lint rule that keeps each app behind its public face (eslint.config.mjs). */
describe('npm run lint: apps are used through their public faces', () => {
  const eslint = new ESLint({ cwd: process.cwd() });
  const messagesOf = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return result.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
  };

  it.each([
    ['the CLI', 'apps/cli/src/commands/fixture.ts', importing('authStore', '../../../auth/src/migrations')],
    ['a benchmark', 'bench/fixture.ts', importing('GatewayModule', '../apps/gateway/src/gateway.module')],
    ['a test', 'test/fixture.spec.ts', importing('VaultModule', '../apps/vault/src/vault.module')],
    ['a lib', 'libs/config/src/fixture.ts', importing('IngestModule', '../../../apps/ingest/src/ingest.module')],
  ])("refuses %s reaching into another app's src", async (_, filePath, code) => {
    const messages = await messagesOf(filePath, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/public face/);
  });

  it('accepts the public face and an app importing its own files', async () => {
    expect(await messagesOf('bench/fixture.ts', importing('GatewayModule', '@meter/gateway'))).toEqual([]);
    expect(await messagesOf('bench/fixture.ts', importing('GatewayModule', '../apps/gateway/src'))).toEqual([]);
    expect(await messagesOf('apps/gateway/src/fixture.ts', importing('GatewayModule', './gateway.module'))).toEqual([]);
  });
});
