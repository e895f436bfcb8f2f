import { describe, expect, it } from 'vitest';
import { busyOf, busyParameters } from './delivery-shares';

describe('busyOf', () => {
  it('counts the attempts under way per endpoint and per organization, as the claim query takes them', () => {
    const busy = busyOf([
      { endpoint_id: 'e1', org_id: 'a' },
      { endpoint_id: 'e1', org_id: 'a' },
      { endpoint_id: 'e2', org_id: 'a' },
      { endpoint_id: 'e3', org_id: 'b' },
    ]);
    expect(busyParameters(busy)).toEqual([
      ['e1', 'e2', 'e3'],
      [2, 1, 1],
      ['a', 'b'],
      [3, 1],
    ]);
  });

  it('is empty when nothing is under way', () => {
    expect(busyParameters(busyOf([]))).toEqual([[], [], [], []]);
  });
});
