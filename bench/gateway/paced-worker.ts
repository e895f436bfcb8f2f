import { signRequest } from '@meter/signing';
import { pacedLoad } from './paced-load';

/**
 * The paced load generator as a process of its own (bench:gateway starts one
 * per measurement): a fresh heap, so the garbage of the autocannon runs before
 * it, in the benchmark's own process, is not collected in the middle of a
 * latency measurement. Input: one JSON argument; output: the result as JSON.
 */
interface PacedWorkerInput {
  port: number;
  connections: number;
  rate: number;
  durationSeconds: number;
  warmupSeconds: number;
  target: string;
  credential: { accessKey: string; secretKey: string };
}

async function main() {
  const input = JSON.parse(process.argv[2] ?? '') as PacedWorkerInput;
  const { port, target, credential } = input;
  const result = await pacedLoad({
    ...input,
    request: () =>
      `GET ${target} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nauthorization: ${signRequest({ ...credential, method: 'GET', target }).authorization}\r\n\r\n`,
  });
  process.stdout.write(JSON.stringify(result));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
