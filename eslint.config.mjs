// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/** Each app shows one public face, apps/<app>/src/index.ts (`@meter/<app>`); the rest is its own. */
const APPS = ['auth', 'gateway', 'vault', 'ingest', 'integrations', 'collectors', 'cli'];

const publicFacesOnly = APPS.map((app) => ({
  target: ['./!(apps)/**', `./apps/!(${app})/**`],
  from: `./apps/${app}/src`,
  except: ['./index.ts'],
  message: `import @meter/${app} (apps/${app}/src/index.ts), the app's public face, not its internals`,
}));

/**
 * The ingest schema has one writer, apps/ingest (docs/architecture.md, "Storage"). Outside it, no SQL that
 * changes the schema (DML, DDL, calls of its functions) and, where processes only read it, no import of
 * ingest at all: they read through @meter/read-model. The CLI, benchmarks and tests write through
 * @meter/ingest; test files arrange (and break) data as they need.
 */
const INGEST_WRITE_SQL = String.raw`\b(insert\s+into|update|delete\s+from|truncate(\s+table)?|copy|lock(\s+table)?)\s+(only\s+)?"?ingest"?\.|\b(create|alter|drop|comment\s+on|grant|revoke)\b[^;]*?\bingest\.|\bingest\.\w+\s*\(`;
const INGEST_WRITER_MESSAGE = 'only apps/ingest writes the ingest schema (docs/architecture.md, "Storage"): read it through @meter/read-model';
const ingestHasOneWriter = [
  {
    files: ['apps/**/*.ts', 'libs/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts', 'test/**/*.ts'],
    ignores: ['apps/ingest/**', '**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: `Literal[value=/${INGEST_WRITE_SQL}/i]`, message: INGEST_WRITER_MESSAGE },
        { selector: `TemplateElement[value.raw=/${INGEST_WRITE_SQL}/i]`, message: INGEST_WRITER_MESSAGE },
      ],
    },
  },
  {
    files: ['apps/!(ingest|cli)/**/*.ts', 'libs/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: '@meter/ingest', message: INGEST_WRITER_MESSAGE }],
          patterns: [{ group: ['**/ingest/src', '**/ingest/src/**'], message: INGEST_WRITER_MESSAGE }],
        },
      ],
    },
  },
];

/**
 * TypeORM through its public API only (docs/architecture.md, "Storage"): a query runner's connection comes from
 * `connect()`, never from the runner's or the driver's own fields, which change between releases.
 */
const TYPEORM_PRIVATE_MESSAGE = "TypeORM's internals: take the connection from QueryRunner.connect() (see libs/persistence/src/prepared-queries.ts)";
const typeormPublicApiOnly = {
  files: ['apps/**/*.ts', 'libs/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
  rules: {
    'no-restricted-properties': [
      'error',
      ...['databaseConnection', 'master', 'obtainMasterConnection', 'obtainSlaveConnection'].map((property) => ({
        property,
        message: TYPEORM_PRIVATE_MESSAGE,
      })),
    ],
  },
};

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
  ...ingestHasOneWriter,
  typeormPublicApiOnly,
);
