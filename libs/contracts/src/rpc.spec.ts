import { describe, expect, it } from 'vitest';
import { readRpcDeadline, rpcDeadline } from './rpc';

describe('request deadlines', () => {
  it('keeps a fifth of the wait, at most 500 ms, for the way back', () => {
    expect(rpcDeadline(10_000, 1000)).toBe(10_800);
    expect(rpcDeadline(10_000, 3000)).toBe(12_500);
    expect(rpcDeadline(10_000, 30_000)).toBe(39_500);
  });

  it('reads the header: a time, none, or not a time', () => {
    expect(readRpcDeadline('1767225600000')).toBe(1_767_225_600_000);
    expect(readRpcDeadline(undefined)).toBeUndefined();
    expect(readRpcDeadline('')).toBeUndefined();
    for (const bad of ['soon', '-1', '1.5', '1e12', '9'.repeat(16)]) expect(readRpcDeadline(bad), bad).toBeNull();
  });
});
