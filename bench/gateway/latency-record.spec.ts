import { describe, expect, it } from 'vitest';
import { LatencyRecord } from './latency-record';

describe('LatencyRecord', () => {
  it('gives p50 and p99 to the hundredth of a millisecond, past its first allocation', () => {
    const record = new LatencyRecord();
    // 100,000 answers: 0.01 ms, 0.02 ms, ... 1000 ms, added out of order.
    for (let i = 100_000; i >= 1; i--) record.add(i / 100);
    expect(record.size).toBe(100_000);
    expect(record.summary()).toEqual({ p50: 500, p99: 990 });
  });

  it('keeps fractions autocannon would cut to whole milliseconds', () => {
    const record = new LatencyRecord();
    for (const ms of [0.4, 0.6, 5.731, 5.2, 0.9]) record.add(ms);
    expect(record.summary()).toEqual({ p50: 0.9, p99: 5.73 });
  });

  it('answers NaN when nothing was recorded', () => {
    expect(new LatencyRecord().summary()).toEqual({ p50: NaN, p99: NaN });
  });
});
