import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { envSchema } from '@meter/config';
import { APPS, KNOWN_ENV_NAMES } from './deploy/policies';

/**
 * There is no Docker engine in CI: docker-compose.yml and the Dockerfile are
 * checked for what `docker compose up` relies on, by reading them.
 */
// Compose resolves YAML merge keys (<<), as the yaml package does with merge: true.
const compose = parse(readFileSync('docker-compose.yml', 'utf8'), { merge: true });
const dockerfile = readFileSync('Dockerfile', 'utf8');

describe('docker-compose.yml', () => {
  it('runs postgres, redis, NATS with JetStream, the migration and every service', () => {
    expect(Object.keys(compose.services).sort()).toEqual([...Object.keys(APPS), 'migrate', 'nats', 'postgres', 'redis'].sort());
    expect(compose.services.nats.command).toContain('-js');
    for (const name of ['postgres', 'redis', 'nats']) expect(compose.services[name].healthcheck?.test, name).toBeDefined();
  });

  it('migrates once, after Postgres is healthy, with the same image', () => {
    const migrate = compose.services.migrate;
    expect(migrate.command).toEqual(['node', 'dist/apps/cli/src/main.js', 'migrate']);
    expect(migrate.restart).toBe('no');
    expect(migrate.depends_on.postgres.condition).toBe('service_healthy');
    expect(migrate.build.target).toBe('runtime');
  });

  it.each(Object.entries(APPS))('%s: its APP, its port, a /readyz health check by node fetch, started after the migration', (name, port) => {
    const service = compose.services[name];
    expect(service.environment.APP).toBe(name);
    // Collectors publish their MQTT port besides (1883, as a broker would).
    expect(service.ports).toEqual(name === 'collectors' ? [`${port}:${port}`, '1883:1883'] : [`${port}:${port}`]);
    const test = service.healthcheck.test as string[];
    expect(test.slice(0, 3)).toEqual(['CMD', 'node', '-e']);
    expect(test[3]).toContain(`fetch('http://127.0.0.1:${port}/readyz')`);
    expect(service.depends_on.migrate.condition).toBe('service_completed_successfully');
    expect(compose.services.migrate.environment[`${name.toUpperCase()}_PORT`], 'the shared environment names its port').toBe(String(port));
    for (const dep of ['postgres', 'redis', 'nats']) expect(service.depends_on[dep].condition).toBe('service_healthy');
    expect(service.volumes).toContain('meter-data:/app/.data');
  });

  it('gives every process a configuration the schema accepts, with no variable it does not know', () => {
    for (const name of ['migrate', ...Object.keys(APPS)]) {
      const env: Record<string, string> = compose.services[name].environment;
      expect(
        Object.keys(env).filter((k) => !KNOWN_ENV_NAMES.has(k)),
        name,
      ).toEqual([]);
      const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
      expect(parsed.success, `${name}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      expect(parsed.data?.DATABASE_URL).toMatch(/@postgres:5432\/meter$/);
    }
  });
});

describe('Dockerfile', () => {
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const runtime = stages.find((s) => / AS runtime$/m.test(s.split('\n')[0])) ?? '';

  it('builds with npm ci and npm run build, and prunes devDependencies in a stage of its own', () => {
    expect(dockerfile).toMatch(/^RUN npm ci$/m);
    expect(dockerfile).toMatch(/^RUN npm run build$/m);
    expect(dockerfile).toMatch(/^FROM build AS prod-deps\nRUN npm prune --omit=dev$/m);
  });

  it('runs as node on node:20-slim with production node_modules, the process chosen by APP', () => {
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:20-slim$/m);
    expect(runtime.split('\n')[0]).toBe('${NODE_IMAGE} AS runtime');
    expect(runtime).toMatch(/^ARG APP=gateway$/m);
    expect(runtime).toMatch(/^COPY --from=prod-deps \/app\/node_modules \.\/node_modules$/m);
    expect(runtime).not.toMatch(/--from=build \/app\/node_modules/);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime.trim().split('\n').at(-1)).toBe('CMD ["sh", "-c", "exec node dist/apps/${APP}/src/main.js"]');
  });

  it('keeps the build context small and free of local state', () => {
    const ignored = readFileSync('.dockerignore', 'utf8').split('\n');
    for (const entry of ['node_modules', 'dist', '.data', '.git', '.env']) expect(ignored).toContain(entry);
  });
});
