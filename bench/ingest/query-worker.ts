import { Agent, get as httpGet } from 'node:http';
import { signRequest } from '@meter/signing';
import { routeDurations, withinGateway } from './route-durations';

/**
 * The integrator's side of bench:ingest part 4, as a process of its own: signed
 * GETs one after the other on one kept-alive connection, timed from the call
 * to the last byte. The benchmark's own process holds the hundreds of
 * thousands of readings it published; its collections (scavenges of 5–22 ms
 * measured there) landed inside the requests it timed. A fresh heap holds
 * nothing but these calls. Input: one JSON argument; output: JSON on stdout.
 */
export interface QueryWorkerInput {
  port: number;
  credential: { accessKey: string; secretKey: string };
  headers: Record<string, string>;
  /** `headers`: added to the common ones for this route (X-Unit) */
  routes: { name: string; target: string; headers?: Record<string, string> }[];
  warmup: number;
  requests: number;
}

export interface QueryWorkerResult {
  /**
   * Per route: the times of the measured requests, in ms, ascending, and what the gateway's own histogram counted
   * for them (read after the warm-up and at the end): the time inside the gateway, without the client's process
   * or the scheduling of its answer.
   */
  routes: { name: string; times: number[]; inside: { total: number; within5ms: number; within10ms: number } }[];
}

async function main() {
  const input = JSON.parse(process.argv[2] ?? '') as QueryWorkerInput;
  // node:http, not fetch: fetch added about 1 ms of client CPU per call on this machine.
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const call = (target: string, extra: Record<string, string> = {}) =>
    new Promise<number>((resolve, reject) => {
      const { authorization } = signRequest({ ...input.credential, method: 'GET', target });
      const started = performance.now();
      const headers = { ...input.headers, ...extra, authorization };
      const request = httpGet({ host: '127.0.0.1', port: input.port, path: target, agent, headers }, (response) => {
        response.on('data', () => undefined);
        response.on('end', () =>
          response.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`${target} -> ${response.statusCode}`)),
        );
      });
      request.on('error', reject);
    });
  const result: QueryWorkerResult = { routes: [] };
  for (const { name, target, headers } of input.routes) {
    for (let i = 0; i < input.warmup; i++) await call(target, headers);
    const before = await routeDurations(input.port);
    const times: number[] = [];
    for (let i = 0; i < input.requests; i++) times.push(await call(target, headers));
    const inside = withinGateway(before, await routeDurations(input.port), new URL(target, 'http://gateway').pathname);
    result.routes.push({ name, times: times.sort((a, b) => a - b), inside });
  }
  agent.destroy();
  process.stdout.write(JSON.stringify(result));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
