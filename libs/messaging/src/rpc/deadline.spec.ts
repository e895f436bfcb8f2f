import { describe, expect, it } from 'vitest';
import { Deadline } from './deadline';
import { RpcFailure } from './rpc-failure';

describe('Deadline', () => {
  it('passes at its time, not before', () => {
    const deadline = new Deadline(1000);
    expect(deadline.passed(999)).toBe(false);
    expect(deadline.passed(1000)).toBe(true);
    expect(() => deadline.check(999)).not.toThrow();
  });

  it('refuses work past it with deadline_exceeded', () => {
    let thrown: unknown;
    try {
      new Deadline(1000).check(1001);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(RpcFailure);
    expect((thrown as RpcFailure).error.code).toBe('deadline_exceeded');
  });

  it('never passes when the request carries none', () => {
    expect(Deadline.none.passed(Number.MAX_SAFE_INTEGER)).toBe(false);
  });
});
