import { describe, expect, it } from 'vitest';
import { batchDecision } from './window-batch';

describe('batchDecision', () => {
  it('admits the first `admitted` in order, each seeing the window after its own admission', () => {
    const result = { admitted: 3, before: 55, resetMs: 42_000 };
    const decisions = [0, 1, 2, 3, 4].map((i) => batchDecision(i, result, 60, 60_000));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    expect(decisions.map((d) => d.remaining)).toEqual([4, 3, 2, 2, 2]);
    expect(decisions.every((d) => d.resetMs === 42_000 && d.limit === 60 && d.windowSeconds === 60)).toBe(true);
  });

  it('refuses the whole batch with remaining 0 when the window is full, and never reports a negative remaining', () => {
    expect(batchDecision(0, { admitted: 0, before: 60, resetMs: 1_500 }, 60, 60_000)).toEqual({
      allowed: false,
      limit: 60,
      windowSeconds: 60,
      remaining: 0,
      resetMs: 1_500,
    });
    // A limit lowered below what the window already holds.
    expect(batchDecision(1, { admitted: 0, before: 80, resetMs: 9 }, 60, 60_000).remaining).toBe(0);
  });

  it('gives a lone request what the one-request script gave', () => {
    expect(batchDecision(0, { admitted: 1, before: 0, resetMs: 60_000 }, 60, 60_000)).toEqual({
      allowed: true,
      limit: 60,
      windowSeconds: 60,
      remaining: 59,
      resetMs: 60_000,
    });
    expect(batchDecision(0, { admitted: 1, before: 59, resetMs: 100 }, 60, 60_000)).toMatchObject({ allowed: true, remaining: 0 });
  });
});
