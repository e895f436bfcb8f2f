/** CPU seconds of the pipeline without Postgres (bench:ingest part 2b); `nats` is undefined where no local nats-server was found. */
export interface PipelineCpu {
  publisher: number;
  nats: number | undefined;
  worker: number;
}

export interface OneRowBoundInput {
  /** CPUs of the machine that runs everything */
  cpus: number;
  /** readings the pipeline's CPU was measured on */
  readings: number;
  pipelineCpu: PipelineCpu;
  /** Postgres CPU seconds per row: the raw `INSERT ... unnest`'s, or the ingest's own per reading */
  pgCpuPerRow: number;
  /** rows/s of that raw insert */
  rawRate: number;
}

/**
 * The fastest any ingest that writes one Postgres row per reading could go on
 * this machine: every CPU busy, each reading costing the pipeline's CPU
 * (publisher, bus, the ingest's own steps before the database) plus a
 * Postgres cost per row, and nothing else. With the bare five-column insert's
 * cost that is a bound on any one-row-per-reading design; with the ingest's
 * own, on the read model's rows as they are. A real ingest also builds its
 * columns in its own process, so it can only be slower. A missing
 * nats-server figure counts as zero, which loosens the bound and never
 * tightens it.
 */
export function oneRowPerReadingBound(input: OneRowBoundInput): { cpus: number; rate: number; ratio: number } {
  const { publisher, nats, worker } = input.pipelineCpu;
  const perReading = (publisher + (nats ?? 0) + worker) / input.readings + input.pgCpuPerRow;
  const rate = input.cpus / perReading;
  return { cpus: input.cpus, rate, ratio: rate / input.rawRate };
}
