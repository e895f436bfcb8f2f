import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort, httpStatus, isolatedInfra, PlatformProcess, type IsolatedInfra } from '@meter/testing';

/** The running processes serve at /docs exactly the documents committed under docs/openapi/. */
const SERVED = [
  { service: 'gateway', api: 'gateway', portVariable: 'GATEWAY_PORT' },
  { service: 'auth', api: 'management', portVariable: 'AUTH_PORT' },
] as const;

describe.each(SERVED)('$service serves docs/openapi/$api.json at /docs', ({ service, api, portVariable }) => {
  let infra: IsolatedInfra;
  let port: number;
  let running: PlatformProcess;

  beforeAll(async () => {
    infra = await isolatedInfra();
    port = await freePort();
    running = PlatformProcess.start(`apps/${service}/src/main.js`, infra.env({ [portVariable]: String(port) }));
    await eventually(async () => (await httpStatus(`http://127.0.0.1:${port}/readyz`)) === 200, 30_000, `${service} ready`).catch((error: Error) => {
      throw new Error(`${error.message}\n${running.log()}`);
    });
  });

  afterAll(async () => {
    await running?.stop();
    await infra?.cleanup();
  });

  it('answers /docs/openapi.json with the committed document', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/docs/openapi.json`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(JSON.parse(readFileSync(`docs/openapi/${api}.json`, 'utf8')));
  });

  it('answers /docs with Swagger UI', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('swagger-ui');
  });
});
