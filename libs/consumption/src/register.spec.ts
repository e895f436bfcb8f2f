import { describe, expect, it } from 'vitest';
import { registerAt } from './register';

const h = (hours: number) => hours * 3600_000;

describe('registerAt', () => {
  it('is the reading itself at its instant', () => {
    expect(registerAt(h(2), { readAt: h(2), value: 12 }, { readAt: h(4), value: 14, reset: false })).toBe(12);
    expect(registerAt(h(2), { readAt: h(2), value: 12 }, undefined)).toBe(12);
  });

  it('spreads linearly between two readings', () => {
    expect(registerAt(h(3), { readAt: h(2), value: 12 }, { readAt: h(4), value: 14, reset: false })).toBe(13);
    expect(registerAt(h(2.5), { readAt: h(2), value: 10 }, { readAt: h(6), value: 18, reset: false })).toBe(11);
  });

  it('stays at the earlier value across a reset', () => {
    expect(registerAt(h(3), { readAt: h(2), value: 500 }, { readAt: h(4), value: 3, reset: true })).toBe(500);
  });

  it('is unknown where the readings do not reach', () => {
    expect(registerAt(h(1), undefined, { readAt: h(2), value: 12, reset: false })).toBeUndefined();
    expect(registerAt(h(5), { readAt: h(4), value: 14 }, undefined)).toBeUndefined();
  });
});
