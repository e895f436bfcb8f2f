/**
 * Failed sign-ins per source address in a sliding minute: past the limit, an
 * address is refused without its password being checked, so a flood of bad
 * CONNECTs costs neither auth nor an Argon2id verification. Per process; the
 * memory is bounded by forgetting addresses whose failures are a minute old.
 */
export class AddressThrottle {
  private readonly failures = new Map<string, number[]>();
  private sweptAt = 0;

  constructor(
    private readonly limitPerMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until the address may try again, or 0 when it may now. */
  retryAfterSeconds(address: string): number {
    const times = this.recent(address);
    if (times.length < this.limitPerMinute) return 0;
    return Math.max(1, Math.ceil((times[times.length - this.limitPerMinute] + WINDOW_MS - this.now()) / 1000));
  }

  fail(address: string): void {
    const times = this.recent(address);
    times.push(this.now());
    this.failures.set(address, times);
    this.sweep();
  }

  private recent(address: string): number[] {
    const since = this.now() - WINDOW_MS;
    const times = (this.failures.get(address) ?? []).filter((t) => t > since);
    if (times.length === 0) this.failures.delete(address);
    return times;
  }

  private sweep() {
    const now = this.now();
    if (now - this.sweptAt < WINDOW_MS) return;
    this.sweptAt = now;
    for (const address of [...this.failures.keys()]) this.recent(address);
  }
}

const WINDOW_MS = 60_000;
