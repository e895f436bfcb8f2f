/** What one rule says at a reading: open an episode, close the open one, or leave things as they are. */
export type Verdict = { kind: 'raise'; message: string } | { kind: 'clear' } | { kind: 'keep' };

export const KEEP: Verdict = { kind: 'keep' };
export const CLEAR: Verdict = { kind: 'clear' };
export const raise = (message: string): Verdict => ({ kind: 'raise', message });

/** `2026-11-21T10:00:00Z`: instants in messages, to the second. */
export const isoSecond = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
