/**
 * After a failed attempt: the next attempt's time, or null when the
 * delivery has used its attempts. `attempts` counts the attempts made so far
 * (the failed one included); `schedule` holds the wait after each, in
 * seconds (WEBHOOK_RETRY_SCHEDULE_SECONDS).
 */
export function nextAttemptAt(attempts: number, maxAttempts: number, schedule: readonly number[], nowMs: number): number | null {
  if (attempts >= maxAttempts || schedule.length === 0) return null;
  const wait = schedule[Math.min(attempts, schedule.length) - 1];
  return nowMs + wait * 1000;
}

/** The attempts the schedule allows: the first and one after each wait. */
export const scheduledAttempts = (schedule: readonly number[]) => schedule.length + 1;
