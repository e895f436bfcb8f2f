import { request as httpRequest } from 'node:http';
import type { KeyRing } from '@meter/crypto';
import { signRequest } from '@meter/signing';
import { isolatedInfra, startReadyApp, type IsolatedInfra, type PlatformProcess } from '@meter/testing';
import { AuthEvents, testKeyRing, type TestCredential } from './harness/auth-events';
import type { SeedCredentialOptions } from './harness/credential-events';

/**
 * Test helpers shared by the gateway's end-to-end files: a gateway on servers of its own
 * (startGateway), auth events on the bus and exact HTTP requests.
 */

export { AuthEvents, testKeyRing, type TestCredential };

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): Record<string, unknown>;
}

/** One HTTP/1.1 request whose target and body bytes go on the wire exactly as given. */
export function rawRequest(
  port: number,
  options: { method?: string; target: string; headers?: Record<string, string>; body?: Buffer | string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : Buffer.from(options.body);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.target,
        headers: { ...(body ? { 'content-length': String(body.length) } : {}), ...options.headers },
        timeout: 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) as Record<string, unknown> });
        });
      },
    );
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.end(body);
  });
}

/** A request signed for `credential` at the gateway's time (or at `timestamp`), sent byte for byte. */
export function signedRequest(
  port: number,
  credential: Pick<TestCredential, 'accessKey' | 'secretKey'>,
  options: { method?: string; target: string; body?: string; headers?: Record<string, string>; timestamp?: number },
): Promise<RawResponse> {
  const method = options.method ?? 'GET';
  const { authorization } = signRequest({
    accessKey: credential.accessKey,
    secretKey: credential.secretKey,
    method,
    target: options.target,
    body: options.body,
    timestamp: options.timestamp ?? nowSeconds(),
  });
  return rawRequest(port, {
    method,
    target: options.target,
    body: options.body,
    headers: { authorization, ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
  });
}

/** The gateway's clock as this test file set it (TEST_NOW given to startGateway), else the real one. */
let pinnedNowMs: number | undefined;

/** The gateway's "now" in seconds: what signedRequest signs with unless told otherwise. */
export const nowSeconds = () => Math.floor((pinnedNowMs ?? Date.now()) / 1000);

/** A gateway process on servers of its own, fed credentials through the auth event stream. */
export interface GatewayUnderTest {
  infra: IsolatedInfra;
  keys: { ring: KeyRing; env: string };
  events: AuthEvents;
  /** The credentials asked for, published before the gateway started (it replays them before it says ready). */
  credentials: TestCredential[];
  port: number;
  process: PlatformProcess;
  /** The environment the gateway got (isolated servers, the key ring and the options' `env`). */
  env: Record<string, string>;
  /** Starts one more gateway process with the same environment (plus `env`); stop() stops it too. */
  another(env?: Record<string, string>): Promise<{ port: number; process: PlatformProcess }>;
  stop(): Promise<void>;
}

/**
 * The set-up of every gateway end-to-end test: isolated servers, a test key
 * ring, the credentials asked for published as auth events, and a built
 * gateway on a free port, ready. `env` goes to the gateway; a TEST_NOW in
 * it pins the gateway's clock, and signedRequest then signs at that time.
 */
export async function startGateway(options: { env?: Record<string, string>; credentials?: SeedCredentialOptions[] } = {}): Promise<GatewayUnderTest> {
  const infra = await isolatedInfra();
  const keys = await testKeyRing();
  const events = await AuthEvents.connect(infra.natsUrl, infra.bus, keys.ring);
  const credentials: TestCredential[] = [];
  for (const credential of options.credentials ?? []) credentials.push(await events.createCredential(credential));
  if (options.env?.TEST_NOW) pinnedNowMs = Date.parse(options.env.TEST_NOW);
  const env = infra.env({ CREDENTIAL_KEYRING: keys.env, ...options.env });
  const processes: PlatformProcess[] = [];
  const another = async (extra: Record<string, string> = {}) => {
    const started = await startReadyApp('gateway', { ...env, ...extra });
    processes.push(started.process);
    return started;
  };
  const first = await another();
  return {
    infra,
    keys,
    events,
    credentials,
    port: first.port,
    process: first.process,
    env,
    another,
    async stop() {
      await Promise.all(processes.map((process) => process.stop()));
      await events.close();
      await infra.cleanup();
    },
  };
}
