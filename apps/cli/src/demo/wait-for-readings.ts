import type { Queryable } from '@meter/read-model';
import { storedReadingCount } from '@meter/read-model';
import type { Progress } from '../progress';

/**
 * Resolves once the read model holds `expected` readings of the
 * organization: ingest commits before it acknowledges, so the gateway then
 * answers from all of them. It counts only this organization's rows, so
 * other organizations' traffic and messages that ingest refuses (dead
 * letters) never hold it up.
 */
export async function waitForReadings(
  db: Queryable,
  orgId: string,
  expected: number,
  options: { timeoutMs: number; progress?: Progress; pollMs?: number },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let stored = 0;
  for (;;) {
    stored = await storedReadingCount(db, orgId);
    options.progress?.set(stored);
    if (stored >= expected) return;
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 250));
  }
  throw new Error(
    `ingest stored ${stored} of the ${expected} readings of ${orgId} within ${Math.round(options.timeoutMs / 1000)} s: is the ingest process running?`,
  );
}
