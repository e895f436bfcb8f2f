import { describe, expect, it } from 'vitest';
import { ExpiringKeys } from './expiring-keys';

describe('ExpiringKeys', () => {
  it('remembers a key until its time is up', () => {
    const keys = new ExpiringKeys(2000, 10);
    keys.add('sk_live_a', 1000);
    expect(keys.has('sk_live_a', 1000)).toBe(true);
    expect(keys.has('sk_live_a', 2999)).toBe(true);
    expect(keys.has('sk_live_a', 3000)).toBe(false);
    expect(keys.size).toBe(0);
    expect(keys.has('sk_live_b', 1000)).toBe(false);
  });

  it('holds at most its capacity, dropping the oldest first', () => {
    const keys = new ExpiringKeys(60_000, 3);
    for (const [i, key] of ['a', 'b', 'c', 'd'].entries()) keys.add(key, i);
    expect(keys.size).toBe(3);
    expect(['a', 'b', 'c', 'd'].map((k) => keys.has(k, 10))).toEqual([false, true, true, true]);
    // Adding again renews a key and makes it the newest.
    keys.add('b', 20);
    keys.add('e', 21);
    expect(['b', 'c', 'd', 'e'].map((k) => keys.has(k, 30))).toEqual([true, false, true, true]);
  });

  it('forgets a key on request', () => {
    const keys = new ExpiringKeys(60_000, 3);
    keys.add('a', 0);
    keys.delete('a');
    expect(keys.has('a', 1)).toBe(false);
  });
});
