/**
 * The register (meter index) at an instant, from the readings around it,
 * interpolated as consumption is spread (docs/consumption.md): linearly
 * between two readings, flat across a register reset (that interval counts
 * 0, and the later reading's value is the new base). Undefined where the
 * readings do not reach: before the first reading or after the last.
 */
export interface RegisterReading {
  /** epoch ms */
  readAt: number;
  value: number;
}

/**
 * `before` is the latest reading at or before `at`, `after` the first one
 * after it (and `reset` whether its value went down from `before`'s).
 */
export function registerAt(at: number, before: RegisterReading | undefined, after: (RegisterReading & { reset: boolean }) | undefined): number | undefined {
  if (!before) return undefined;
  if (before.readAt === at) return before.value;
  if (!after) return undefined;
  if (after.reset) return before.value;
  return before.value + ((after.value - before.value) * (at - before.readAt)) / (after.readAt - before.readAt);
}
