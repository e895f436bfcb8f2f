import { describe, expect, it } from 'vitest';
import { nextAttemptAt, scheduledAttempts } from './retry-schedule';

const SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000];

describe('the retry schedule', () => {
  it.each([
    [1, 5],
    [2, 300],
    [3, 1800],
    [4, 7200],
    [5, 18000],
    [6, 36000],
    [7, 36000],
  ])('after failed attempt %i the next waits %i s', (attempts, seconds) => {
    expect(nextAttemptAt(attempts, scheduledAttempts(SCHEDULE), SCHEDULE, 1000)).toBe(1000 + seconds * 1000);
  });

  it('fails after the eighth attempt', () => {
    expect(scheduledAttempts(SCHEDULE)).toBe(8);
    expect(nextAttemptAt(8, 8, SCHEDULE, 0)).toBeNull();
  });

  it('a manual retry allows one more attempt, then fails', () => {
    expect(nextAttemptAt(9, 9, SCHEDULE, 0)).toBeNull();
  });
});
