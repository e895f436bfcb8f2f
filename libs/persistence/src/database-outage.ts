import { isDatabaseUnavailable } from './database-unavailable';

export interface OutageLog {
  warn(message: string): void;
}

export interface DatabaseOutageOptions {
  /** A trivial query; the outage ends when it succeeds. */
  probe: () => Promise<unknown>;
  log: OutageLog;
  /** How often the probe runs while an outage is on. */
  probeIntervalMs?: number;
  now?: () => number;
}

function reasonOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return reasonOf(error.errors[0]);
  const driverError = (error as { driverError?: unknown } | null)?.driverError;
  if (driverError) return reasonOf(driverError);
  return error instanceof Error ? error.message || error.name : String(error);
}

/**
 * One process's view of Postgres being away: the first failure that means
 * the database cannot answer logs one warning, every later one only counts,
 * and a probe (`SELECT 1` each second, only while the outage lasts) logs
 * one more line when it answers again. So an outage is two log lines
 * however many requests, batches or relay passes it fails.
 */
export class DatabaseOutage {
  private since: number | undefined;
  private failures = 0;
  private timer: NodeJS.Timeout | undefined;
  private probing = false;
  private readonly now: () => number;

  constructor(private readonly options: DatabaseOutageOptions) {
    this.now = options.now ?? Date.now;
  }

  get active(): boolean {
    return this.since !== undefined;
  }

  /**
   * Records `error` when it means Postgres is unavailable and returns true
   * (the caller then logs nothing); returns false for any other error.
   */
  report(error: unknown): boolean {
    if (!isDatabaseUnavailable(error)) return false;
    this.failures += 1;
    if (this.since === undefined) {
      this.since = this.now();
      this.options.log.warn(`Postgres unavailable: ${reasonOf(error)}; what needs it fails (HTTP 503) until it answers again`);
      this.timer = setInterval(() => void this.check(), this.options.probeIntervalMs ?? 1000);
      this.timer.unref();
    }
    return true;
  }

  /** Ends the probing (process shutdown). */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async check(): Promise<void> {
    if (this.probing || this.since === undefined) return;
    this.probing = true;
    try {
      await this.options.probe();
    } catch {
      return;
    } finally {
      this.probing = false;
    }
    const seconds = Math.round((this.now() - this.since) / 100) / 10;
    this.options.log.warn(`Postgres available again after ${seconds} s; ${this.failures} operations failed meanwhile`);
    this.stop();
    this.since = undefined;
    this.failures = 0;
  }
}
