import { describe, expect, it } from 'vitest';
import { oneRowPerReadingBound } from './one-row-bound';

describe('oneRowPerReadingBound', () => {
  it('divides the CPUs by the pipeline cost per reading plus a Postgres cost per row', () => {
    // 200,000 readings: publisher 0.2 s, nats 0.12 s, worker 0.24 s = 2.8 µs per reading; Postgres 2.2 µs per row.
    const bound = oneRowPerReadingBound({
      cpus: 2,
      readings: 200_000,
      pipelineCpu: { publisher: 0.2, nats: 0.12, worker: 0.24 },
      pgCpuPerRow: 2.2e-6,
      rawRate: 640_000,
    });
    expect(bound.rate).toBeCloseTo(2 / 5e-6, 3); // 400,000 readings/s
    expect(bound.ratio).toBeCloseTo(400_000 / 640_000, 9);
    expect(bound.cpus).toBe(2);
  });

  it('counts a missing nats-server figure as zero: a looser bound, never a tighter one', () => {
    const input = { cpus: 2, readings: 1000, pgCpuPerRow: 2e-6, rawRate: 500_000 };
    const without = oneRowPerReadingBound({ ...input, pipelineCpu: { publisher: 0.001, nats: undefined, worker: 0.001 } });
    const withNats = oneRowPerReadingBound({ ...input, pipelineCpu: { publisher: 0.001, nats: 0.001, worker: 0.001 } });
    expect(without.rate).toBeCloseTo(2 / 4e-6, 3);
    expect(withNats.rate).toBeLessThan(without.rate);
  });

  it('scales with the CPUs', () => {
    const input = { readings: 1000, pipelineCpu: { publisher: 0.001, nats: 0.001, worker: 0.001 }, pgCpuPerRow: 1e-6, rawRate: 1e6 };
    expect(oneRowPerReadingBound({ ...input, cpus: 4 }).rate).toBeCloseTo(2 * oneRowPerReadingBound({ ...input, cpus: 2 }).rate, 6);
  });
});
