/**
 * Keys remembered for a while, at most `capacity` of them (the oldest go
 * first): the gateway's short memory of access keys auth did not know, so
 * requests with an unknown key cannot make it ask auth again and again.
 */
export class ExpiringKeys {
  /** Key -> expiry (ms); Map order is insertion order, so the first entry is the oldest. */
  private readonly expiries = new Map<string, number>();

  constructor(
    private readonly ttlMs: number,
    private readonly capacity: number,
  ) {}

  get size(): number {
    return this.expiries.size;
  }

  has(key: string, nowMs: number): boolean {
    const expiry = this.expiries.get(key);
    if (expiry === undefined) return false;
    if (expiry > nowMs) return true;
    this.expiries.delete(key);
    return false;
  }

  add(key: string, nowMs: number): void {
    this.expiries.delete(key);
    this.expiries.set(key, nowMs + this.ttlMs);
    while (this.expiries.size > this.capacity) this.expiries.delete(this.expiries.keys().next().value as string);
  }

  delete(key: string): void {
    this.expiries.delete(key);
  }
}
