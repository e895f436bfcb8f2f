import { defineConfig } from 'vitest/config';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('.', import.meta.url));

const alias = Object.fromEntries(
  ['config', 'persistence', 'messaging', 'http', 'redis', 'signing', 'consumption', 'crypto', 'contracts', 'platform', 'read-model', 'device-reports'].map(
    (lib) => [`@meter/${lib}`, resolve(root, `libs/${lib}/src`)],
  ),
);
alias['@meter/testing'] = resolve(root, 'test/harness');
// Each app's public face (apps/<app>/src/index.ts).
for (const app of ['auth', 'gateway', 'vault', 'ingest', 'integrations', 'collectors', 'cli']) alias[`@meter/${app}`] = resolve(root, `apps/${app}/src`);

// Nest's dependency injection needs emitDecoratorMetadata: Vite 8's Oxc
// transformer reads experimentalDecorators/emitDecoratorMetadata from tsconfig.json.
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          // Unit specs first: they need no servers and fail fastest.
          sequence: { groupOrder: 0 },
          include: [
            'libs/**/*.spec.ts',
            'apps/**/*.spec.ts',
            'bench/**/*.spec.ts',
            'test/deploy*.spec.ts',
            'test/openapi*.spec.ts',
            'test/demo*.spec.ts',
            'test/lint*.spec.ts',
            'test/docs*.spec.ts',
          ],
          exclude: ['**/*.int.spec.ts', '**/*.e2e.spec.ts', 'node_modules/**', 'dist/**'],
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          sequence: { groupOrder: 1 },
          include: ['libs/**/*.int.spec.ts', 'apps/**/*.int.spec.ts', 'bench/**/*.int.spec.ts', 'test/**/*.e2e.spec.ts'],
          globalSetup: ['test/harness/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: true,
          maxWorkers: 2,
        },
      },
    ],
  },
});
