import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, freePort, httpStatus, isolatedInfra, PlatformProcess, type IsolatedInfra } from '@meter/testing';

/** The running processes serve at /docs exactly the documents committed under docs/openapi/. */
const SERVED = [
  { service: 'gateway', api: 'gateway', portVariable: 'GATEWAY_PORT' },
  { service: 'auth', api: 'management', portVariable: 'AUTH_PORT' },
  { service: 'collectors', api: 'collectors', portVariable: 'COLLECTORS_PORT' },
] as const;

/** A request each process refuses for want of credentials (401), before anything else. */
const UNAUTHENTICATED: Record<(typeof SERVED)[number]['service'], { path: string; init?: RequestInit }> = {
  gateway: { path: '/meter/v1/devices' },
  auth: { path: '/org-api-credentials' },
  collectors: { path: '/collect/v1/native', init: { method: 'POST', body: '{"device_id":1}' } },
};

describe.each(SERVED)('$service serves docs/openapi/$api.json at /docs', ({ service, api, portVariable }) => {
  let infra: IsolatedInfra;
  let port: number;
  let running: PlatformProcess;

  beforeAll(async () => {
    infra = await isolatedInfra();
    port = await freePort();
    running = PlatformProcess.start(
      `apps/${service}/src/main.js`,
      infra.env({ [portVariable]: String(port), ...(service === 'collectors' ? { COLLECTORS_MQTT_PORT: String(await freePort()) } : {}) }),
    );
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

  it("resolves a real problem's type to its row on the error page the process serves, unauthenticated", async () => {
    // Without credentials: the gateway's 401 missing_authorization, the management API's and collectors' 401 too.
    const { path, init } = UNAUTHENTICATED[service];
    const problemUrl = `http://127.0.0.1:${port}${path}`;
    const problem = await fetch(problemUrl, init);
    expect(problem.status).toBe(401);
    const { type, code } = (await problem.json()) as { type: string; code: string };
    expect(type).toBe(`/docs/errors#${code}`);
    const page = new URL(type, problemUrl);
    expect(page.href).toBe(`http://127.0.0.1:${port}/docs/errors#${code}`);
    const response = await fetch(page);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    expect(html).toContain(`<tr id="${code}">`);
    // Each code the served document shows has its row.
    const document = (await (await fetch(`http://127.0.0.1:${port}/docs/openapi.json`)).json()) as Record<string, unknown>;
    const codes = new Set(
      JSON.stringify(document)
        .match(/"code":"[a-z_]+","request_id"/g)
        ?.map((m) => m.slice(8, m.indexOf('"', 8))),
    );
    expect(codes.size).toBeGreaterThan(10);
    for (const documented of codes) expect(html, documented).toContain(`<tr id="${documented}">`);
  });

  it('answers /docs with Swagger UI', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('swagger-ui');
  });
});
