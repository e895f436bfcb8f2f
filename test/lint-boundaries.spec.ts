import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The lint rule that keeps each app behind its public face (eslint.config.mjs). */
describe('npm run lint: apps are used through their public faces', () => {
  const eslint = new ESLint({ cwd: process.cwd() });
  const messagesOf = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath });
    return result.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
  };

  it.each([
    ['the CLI', 'apps/cli/src/commands/fixture.ts', "import { authStore } from '../../../auth/src/migrations';\nexport const x = authStore;\n"],
    ['a benchmark', 'bench/fixture.ts', "import { GatewayModule } from '../apps/gateway/src/gateway.module';\nexport const x = GatewayModule;\n"],
    ['a test', 'test/fixture.spec.ts', "import { VaultModule } from '../apps/vault/src/vault.module';\nexport const x = VaultModule;\n"],
    ['a lib', 'libs/config/src/fixture.ts', "import { IngestModule } from '../../../apps/ingest/src/ingest.module';\nexport const x = IngestModule;\n"],
  ])("refuses %s reaching into another app's src", async (_, filePath, code) => {
    const messages = await messagesOf(filePath, code);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/public face/);
  });

  it('accepts the public face and an app importing its own files', async () => {
    expect(await messagesOf('bench/fixture.ts', "import { GatewayModule } from '@meter/gateway';\nexport const x = GatewayModule;\n")).toEqual([]);
    expect(await messagesOf('bench/fixture.ts', "import { GatewayModule } from '../apps/gateway/src';\nexport const x = GatewayModule;\n")).toEqual([]);
    expect(await messagesOf('apps/gateway/src/fixture.ts', "import { GatewayModule } from './gateway.module';\nexport const x = GatewayModule;\n")).toEqual([]);
  });
});
