import { connect, type Socket } from 'node:net';
import { HttpResponseReader } from './http-response-reader';
import { percentile, round } from '../shared/processes';

export interface PacedLoadOptions {
  port: number;
  /** Keep-alive connections; each carries one request at a time. */
  connections: number;
  /** Requests per second, spread evenly over each millisecond. */
  rate: number;
  durationSeconds: number;
  /**
   * Seconds of the same load sent first and not counted, as autocannon's warm-up: the generator is a
   * fresh process, and its first second runs cold code on new connections (p99 of 40-170 ms there on
   * 2026-11-22, against single-digit ms once warm, for the bare route as for the gateway).
   */
  warmupSeconds?: number;
  /** The bytes of the next request (a fresh signature each time, for instance). */
  request: () => string;
}

export interface PacedLoadResult {
  offered: number;
  /** Responses per second over the run. */
  answered: number;
  total: number;
  p50: number;
  p99: number;
  max: number;
  statuses: Record<string, number>;
  errors: number;
}

/**
 * An open-loop load generator: request i is due at start + i / rate whatever
 * the server does (checked every millisecond), and its latency runs from the
 * moment it was found due, so time spent waiting for a free connection counts
 * (no coordinated omission). This is
 * what "p99 at N req/s" means; autocannon's `overallRate` instead sends each
 * second's quota in a burst at the start of the second and measures from the send.
 */
export async function pacedLoad(options: PacedLoadOptions): Promise<PacedLoadResult> {
  const { port, connections, rate, durationSeconds, request } = options;
  const warmup = Math.round(rate * (options.warmupSeconds ?? 0));
  const total = Math.round(rate * durationSeconds);
  /** Requests sent, warm-up included; the first `warmup` are answered but not counted. */
  const sent = warmup + total;
  const latencies = new Float64Array(total);
  const statuses: Record<string, number> = {};
  let answered = 0;
  let settled = 0;
  let errors = 0;
  let issued = 0;
  const backlog: [due: number, index: number][] = [];
  const idle: Conn[] = [];
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));

  interface Conn {
    socket: Socket;
    reader: HttpResponseReader;
    /** Due time of the request in flight. */
    due?: number;
    /** Its number from 0, warm-up included. */
    index?: number;
    closed?: boolean;
  }

  const send = (conn: Conn, [due, index]: [number, number]) => {
    conn.due = due;
    conn.index = index;
    conn.socket.write(request());
  };
  const settle = (conn: Conn, status: number | undefined) => {
    if ((conn.index ?? 0) >= warmup) {
      if (status === undefined) errors++;
      else statuses[status] = (statuses[status] ?? 0) + 1;
      latencies[answered++] = performance.now() - (conn.due ?? 0);
    }
    conn.due = undefined;
    if (++settled === sent) return finish();
    if (conn.closed) return;
    const next = backlog.shift();
    if (next !== undefined) send(conn, next);
    else idle.push(conn);
  };

  const conns = await Promise.all(
    Array.from(
      { length: connections },
      () =>
        new Promise<Conn>((resolve, reject) => {
          const socket = connect({ port, host: '127.0.0.1', noDelay: true }, () => resolve(conn));
          const conn: Conn = { socket, reader: new HttpResponseReader() };
          socket.once('error', reject);
          socket.on('data', (chunk) => {
            for (const status of conn.reader.push(chunk)) settle(conn, status);
          });
          socket.on('close', () => {
            conn.closed = true;
            if (conn.due !== undefined) settle(conn, undefined);
          });
        }),
    ),
  );
  idle.push(...conns);
  const t0 = performance.now();
  /** When the first counted request fell due: the answered rate is taken from here. */
  const measuredFrom = t0 + (warmup / rate) * 1000;

  const tick = () => {
    const now = performance.now();
    const due = Math.min(sent, Math.floor(((now - t0) / 1000) * rate));
    for (; issued < due; issued++) {
      // From the tick that found it due, not its exact due time: the timer's own
      // granularity (about 1 ms) is the generator's, not the server's. Waiting for
      // a free connection still counts, from this moment.
      const conn = idle.pop();
      if (conn) send(conn, [now, issued]);
      else backlog.push([now, issued]);
    }
    if (issued < sent) setTimeout(tick, 1);
  };
  tick();
  // A server that stops answering (or closes every connection) ends the run; what never came back counts as errors.
  const limit = setTimeout(finish, ((options.warmupSeconds ?? 0) + durationSeconds + 30) * 1000);
  await finished;
  clearTimeout(limit);
  const elapsed = (performance.now() - measuredFrom) / 1000;
  errors += total - answered;
  for (const conn of conns) conn.socket.destroy();

  const sorted = latencies.subarray(0, answered).sort();
  const at = (p: number) => round(percentile(sorted, p), 2);
  return { offered: rate, answered: answered / elapsed, total, p50: at(50), p99: at(99), max: at(100), statuses, errors };
}
