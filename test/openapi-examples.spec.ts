import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AuthModule } from '@meter/auth';
import { loadConfig } from '@meter/config';
import { GatewayModule } from '@meter/gateway';
import { collectControllers, documentedRoutes, type DocumentedRoute } from '@meter/http';
import { signRequest, verifySignature } from '@meter/signing';

const APPLICATIONS = {
  gateway: () => GatewayModule.forRoot(loadConfig({})),
  management: () => AuthModule.forRoot(loadConfig({})),
};

interface MediaExamples {
  schema?: unknown;
  examples?: Record<string, { value: unknown }>;
}

/** Every example of a route with the zod schema it illustrates: request bodies by their input, answers by their output. */
function examplesOf(route: DocumentedRoute): { where: string; schema: z.ZodType; value: unknown }[] {
  const found: { where: string; schema: z.ZodType; value: unknown }[] = [];
  const add = (where: string, content: Record<string, MediaExamples> | undefined) => {
    for (const [type, media] of Object.entries(content ?? {})) {
      for (const [name, example] of Object.entries(media.examples ?? {})) {
        if (media.schema instanceof z.ZodType) found.push({ where: `${where} ${type} ${name}`, schema: media.schema, value: example.value });
      }
    }
  };
  const at = `${route.method.toUpperCase()} ${route.path}`;
  add(`${at} request`, route.operation.request?.body?.content as Record<string, MediaExamples>);
  for (const [status, response] of Object.entries(route.operation.responses)) add(`${at} ${status}`, response.content as Record<string, MediaExamples>);
  return found;
}

describe.each(Object.keys(APPLICATIONS) as (keyof typeof APPLICATIONS)[])('the %s document', (api) => {
  it('has only examples its schemas accept (dates that exist, ids and decimals of the right form)', async () => {
    const routes = documentedRoutes(await collectControllers(APPLICATIONS[api]()));
    const examples = routes.flatMap(examplesOf);
    expect(examples.length).toBeGreaterThan(routes.length);
    for (const { where, schema, value } of examples) {
      const parsed = schema.safeParse(value);
      expect(parsed.success ? [] : parsed.error.issues, where).toEqual([]);
    }
  });
});

describe("the gateway document's signed-request samples", () => {
  const description: string = JSON.parse(readFileSync('docs/openapi/gateway.json', 'utf8')).info.description;
  const keys = { accessKey: 'sk_live_TestKey0123456789abcdefghijklmn', secretKey: 'test-secret-0123456789abcdefghijklmnopqrstuv' };

  it("curl's sign() signs as @meter/signing does, with a query and with a body", async () => {
    const shell = /```sh\n([\s\S]*?)```/.exec(description)?.[1];
    const signFunction = /^sign\(\) \{[\s\S]*?^\}$/m.exec(shell ?? '')?.[0];
    expect(signFunction, 'the curl sample defines sign()').toBeDefined();
    const timestamp = 1795252620;
    for (const [method, target, body] of [
      ['GET', '/meter/v1/projection?device_id=1042', ''],
      ['GET', '/meter/v1/devices', ''],
      ['POST', '/meter/v1/dashboard', '{"devices":[{"device_id":1042}]}'],
    ]) {
      const { stdout } = await promisify(execFile)('bash', ['-c', `${signFunction}\nsign "$@"`, 'sign', method, target, body], {
        env: { PATH: process.env.PATH, TIMESTAMP: String(timestamp), METER_ACCESS_KEY: keys.accessKey, METER_SECRET_KEY: keys.secretKey },
      });
      expect(stdout, `${method} ${target}`).toBe(signRequest({ ...keys, method, target, body: body || undefined, timestamp }).authorization);
    }
  });

  it('shows a worked example whose header verifies', () => {
    const given = /`access_key` `([^`]+)`, `secret_key` `([^`]+)` and timestamp `(\d+)`.*?`(GET) ([^`]+)`/s.exec(description);
    const header = /Authorization: SVC-HMAC access_key=(\S+) signature=([0-9a-f]{64}) timestamp=(\d+)/.exec(description);
    expect(given && header).toBeTruthy();
    const [, accessKey, secretKey, timestamp, method, target] = given!;
    expect([header![1], header![3]]).toEqual([accessKey, timestamp]);
    expect(verifySignature({ secretKey, method, target, timestamp: Number(timestamp), signature: header![2] })).toBe(true);
  });

  it('shows the SDK call', () => {
    expect(description).toContain("import { signRequest } from '@meter/signing';");
  });
});
