import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort, httpStatus, isolatedInfra, PlatformProcess, type IsolatedInfra } from '@meter/testing';

const SERVICES = ['gateway', 'auth', 'vault', 'ingest', 'integrations', 'collectors'] as const;

describe('the platform as `npm start` runs it', () => {
  let infra: IsolatedInfra;
  let ports: Record<(typeof SERVICES)[number], number>;
  let platform: PlatformProcess;

  beforeAll(async () => {
    infra = await isolatedInfra({ migrate: false });
    ports = {
      gateway: await freePort(),
      auth: await freePort(),
      vault: await freePort(),
      ingest: await freePort(),
      integrations: await freePort(),
      collectors: await freePort(),
    };
    platform = PlatformProcess.start(
      'scripts/start.js',
      infra.env({
        GATEWAY_PORT: String(ports.gateway),
        AUTH_PORT: String(ports.auth),
        VAULT_PORT: String(ports.vault),
        INGEST_PORT: String(ports.ingest),
        INTEGRATIONS_PORT: String(ports.integrations),
        COLLECTORS_PORT: String(ports.collectors),
        COLLECTORS_MQTT_PORT: String(await freePort()),
        LOG_LEVEL: 'info',
      }),
    );
  });

  afterAll(async () => {
    await platform?.stop();
    await infra?.cleanup();
  });

  it('migrates, then brings the six processes to ready within 30 s', async () => {
    for (const service of SERVICES) {
      await eventually(async () => (await httpStatus(`http://127.0.0.1:${ports[service]}/readyz`)) === 200, 30_000, `${service} ready`).catch(
        (error: Error) => {
          throw new Error(`${error.message}\n${platform.log()}`);
        },
      );
    }
    expect(platform.log()).toMatch(/migrate auth: applied CreateSchemaAuth/);
  });

  it('serves the probes and metrics on every process', async () => {
    for (const service of SERVICES) {
      const base = `http://127.0.0.1:${ports[service]}`;
      expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
      const ready = (await (await fetch(`${base}/readyz`)).json()) as { status: string; checks: Record<string, unknown> };
      expect(ready.status).toBe('ready');
      expect(Object.keys(ready.checks)).toEqual(expect.arrayContaining(['postgres', 'nats']));
      const metrics = await (await fetch(`${base}/metrics`)).text();
      expect(metrics).toContain('process_resident_memory_bytes');
      expect(metrics).toContain('meter_http_request_duration_seconds_bucket');
    }
    const gatewayChecks = ((await (await fetch(`http://127.0.0.1:${ports.gateway}/readyz`)).json()) as { checks: Record<string, unknown> }).checks;
    expect(Object.keys(gatewayChecks).sort()).toEqual(['credentials', 'nats', 'postgres', 'redis']);
  });

  it('logs JSON lines prefixed with the process name', () => {
    const line = platform.output.find((l) => /^\[gateway\s*\]/.test(l) && l.includes('"msg":"gateway listening"'));
    expect(line).toBeDefined();
    expect(JSON.parse(line!.replace(/^\[gateway\s*\]\s*/, ''))).toMatchObject({ service: 'gateway', level: 30 });
  });

  it('stops all six within 10 s of SIGTERM, closing their ports', async () => {
    const sent = Date.now();
    platform.signal('SIGTERM');
    const exit = await platform.exited;
    expect(exit.code).toBe(0);
    expect(exit.at - sent).toBeLessThan(10_000);
    for (const service of SERVICES) {
      expect(platform.log()).toMatch(new RegExp(`\\[${service}\\s*\\].*"msg":"stopped"`));
      await expect(httpStatus(`http://127.0.0.1:${ports[service]}/healthz`)).rejects.toThrow();
    }
  });
});

describe('start-up refuses what cannot work', () => {
  it('stops at once naming an unreachable server and the URL tried', async () => {
    const infra = await isolatedInfra({ migrate: false });
    try {
      const closedPort = await freePort();
      const start = PlatformProcess.start('scripts/start.js', infra.env({ NATS_URL: `nats://127.0.0.1:${closedPort}` }));
      const exit = await start.exited;
      expect(exit.code).toBe(1);
      expect(start.log()).toContain(`cannot reach NATS at nats://127.0.0.1:${closedPort}`);
    } finally {
      await infra.cleanup();
    }
  });

  it('refuses production without the key ring a process needs, naming it', async () => {
    const infra = await isolatedInfra();
    try {
      for (const [app, ring] of [
        ['vault', 'VAULT_ROOT_KEYRING'],
        ['auth', 'CREDENTIAL_KEYRING'],
      ] as const) {
        const process = PlatformProcess.start(
          `apps/${app}/src/main.js`,
          infra.env({ NODE_ENV: 'production', [`${app.toUpperCase()}_PORT`]: String(await freePort()) }),
        );
        const exit = await process.exited;
        expect(exit.code, process.log()).toBe(78);
        expect(process.output).toEqual([`invalid configuration: ${ring} is required in production`]);
      }
    } finally {
      await infra.cleanup();
    }
  });

  it('stops a process with one line naming a bad variable', async () => {
    const gateway = PlatformProcess.start('apps/gateway/src/main.js', { GATEWAY_PORT: 'eighty' });
    const exit = await gateway.exited;
    expect(exit.code).toBe(78);
    expect(gateway.output).toEqual([expect.stringMatching(/^invalid configuration: GATEWAY_PORT /)]);
  });

  it('stops a process with one line naming a bad key ring or TRUSTED_PROXIES entry', async () => {
    for (const [app, name, value] of [
      ['auth', 'CREDENTIAL_KEYRING', 'garbage'],
      ['vault', 'VAULT_ROOT_KEYRING', 'k1:short'],
      ['gateway', 'TRUSTED_PROXIES', '10.0.0.0/8,not-a-cidr'],
    ] as const) {
      const started = PlatformProcess.start(`apps/${app}/src/main.js`, { [name]: value, [`${app.toUpperCase()}_PORT`]: String(await freePort()) });
      const exit = await started.exited;
      expect(exit.code, started.log()).toBe(78);
      expect(started.output).toEqual([expect.stringMatching(new RegExp(`^invalid configuration: ${name} `))]);
    }
  });
});
