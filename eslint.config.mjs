// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/** Each app shows one public face, apps/<app>/src/index.ts (`@meter/<app>`); the rest is its own. */
const APPS = ['auth', 'gateway', 'vault', 'ingest', 'integrations', 'cli'];

const publicFacesOnly = APPS.map((app) => ({
  target: ['./!(apps)/**', `./apps/!(${app})/**`],
  from: `./apps/${app}/src`,
  except: ['./index.ts'],
  message: `import @meter/${app} (apps/${app}/src/index.ts), the app's public face, not its internals`,
}));

export default tseslint.config(
  { ignores: ['dist/**', 'libs/*/dist/**', 'node_modules/**', 'coverage/**', '.data/**', 'eslint.config.mjs'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })] },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'off',
      'no-console': 'off',
      'import-x/no-restricted-paths': ['error', { zones: publicFacesOnly }],
      'import-x/no-duplicates': 'error',
    },
  },
);
