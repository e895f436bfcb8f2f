import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * The worker's code: libsodium's Argon2id, which is synchronous and takes
 * about 150 ms at the INTERACTIVE limits, away from the event loop. It is
 * evaluated from this string, so it runs the same from the TypeScript
 * sources (tests) and from dist/, and it loads libsodium from the path the
 * main thread resolved.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const sodium = require(workerData.sodium);
sodium.ready.then(() => {
  parentPort.on('message', ({ id, op, args }) => {
    try {
      const result = op === 'hash' ? sodium.crypto_pwhash_str(args[0], args[1], args[2]) : sodium.crypto_pwhash_str_verify(args[0], args[1]);
      parentPort.postMessage({ id, result });
    } catch (error) {
      parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
    }
  });
});`;

type Operation = { op: 'hash'; args: [password: string, opsLimit: number, memLimit: number] } | { op: 'verify'; args: [hash: string, password: string] };

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * One worker thread per process for password hashing, started on first use.
 * Requests queue in it one after another (each hash uses 64 MiB; a login
 * waits for the ones before it, the rest of the process does not). The
 * worker keeps the process alive only while a request is pending; if it
 * dies, the pending requests fail and the next one starts a new worker.
 */
class PasswordWorker {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();

  run<T>(operation: Operation): Promise<T> {
    const worker = (this.worker ??= this.start());
    const id = ++this.nextId;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.ref();
      worker.postMessage({ id, ...operation });
    });
  }

  private start(): Worker {
    const sodiumPath = createRequire(__filename).resolve('libsodium-wrappers-sumo');
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { sodium: sodiumPath } });
    worker.unref();
    worker.on('message', ({ id, result, error }: { id: number; result?: unknown; error?: string }) => {
      const request = this.pending.get(id);
      this.pending.delete(id);
      if (this.pending.size === 0) worker.unref();
      if (error === undefined) request?.resolve(result);
      else request?.reject(new Error(error));
    });
    worker.on('error', (error) => this.fail(worker, error));
    worker.on('exit', (code) => this.fail(worker, new Error(`the password worker exited with code ${code}`)));
    return worker;
  }

  private fail(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    for (const request of this.pending.values()) request.reject(error);
    this.pending.clear();
  }
}

const passwordWorker = new PasswordWorker();

/** `crypto_pwhash_str` in the worker thread. */
export function hashInWorker(password: string, opsLimit: number, memLimit: number): Promise<string> {
  return passwordWorker.run<string>({ op: 'hash', args: [password, opsLimit, memLimit] });
}

/** `crypto_pwhash_str_verify` in the worker thread; rejects when libsodium throws (a malformed hash). */
export function verifyInWorker(hash: string, password: string): Promise<boolean> {
  return passwordWorker.run<boolean>({ op: 'verify', args: [hash, password] });
}
