import { percentile, round } from '../shared/processes';

/**
 * Every answer's latency in ms as autocannon measured it (its `response` event gives the float), so the
 * saturated runs report p50 and p99 to the hundredth: autocannon's own histogram keeps whole
 * milliseconds, where "5" may be anything from 5.00 to 5.99.
 */
export class LatencyRecord {
  private times = new Float64Array(1 << 16);
  private count = 0;

  add(ms: number): void {
    if (this.count === this.times.length) {
      const grown = new Float64Array(this.times.length * 2);
      grown.set(this.times);
      this.times = grown;
    }
    this.times[this.count++] = ms;
  }

  get size(): number {
    return this.count;
  }

  /** p50 and p99 in ms, to the hundredth; NaN when nothing was recorded. */
  summary(): { p50: number; p99: number } {
    const sorted = this.times.subarray(0, this.count).sort();
    return { p50: round(percentile(sorted, 50), 2), p99: round(percentile(sorted, 99), 2) };
  }
}
