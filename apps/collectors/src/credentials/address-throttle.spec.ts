import { describe, expect, it } from 'vitest';
import { AddressThrottle } from './address-throttle';

describe('AddressThrottle', () => {
  it('refuses an address after its limit of failures within a minute, for what is left of that minute', () => {
    let now = 1_000_000;
    const throttle = new AddressThrottle(3, () => now);
    for (let i = 0; i < 3; i++) {
      expect(throttle.retryAfterSeconds('10.0.0.1')).toBe(0);
      throttle.fail('10.0.0.1');
      now += 1000;
    }
    expect(throttle.retryAfterSeconds('10.0.0.1')).toBe(57);
    expect(throttle.retryAfterSeconds('10.0.0.2'), 'another address is not affected').toBe(0);
    now += 57_000;
    expect(throttle.retryAfterSeconds('10.0.0.1')).toBe(0);
  });
});
