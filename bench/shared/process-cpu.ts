import { readdirSync, readFileSync } from 'node:fs';

/** Linux's clock ticks per second for /proc/<pid>/stat times (USER_HZ, 100 on every mainstream build). */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) a process on this machine has used so far,
 * from /proc/<pid>/stat; undefined where there is no /proc or the process is gone.
 * CPU time is what other load on a shared machine disturbs least.
 */
export function processCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) in parentheses: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** CPU seconds a set of processes used between two snapshots (processes new in `after` count from zero). */
export function cpuBetween(before: ReadonlyMap<number, number>, after: ReadonlyMap<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

/** Snapshot of the CPU seconds of the given processes. */
export function cpuSnapshot(pids: Iterable<number>): Map<number, number> {
  const snapshot = new Map<number, number>();
  for (const pid of pids) {
    const seconds = processCpuSeconds(pid);
    if (seconds !== undefined) snapshot.set(pid, seconds);
  }
  return snapshot;
}

/** The pids of this machine's processes whose command name is `name` (e.g. the local `nats-server`); none without /proc. */
export function pidsNamed(name: string): number[] {
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === name;
        } catch {
          return false;
        }
      })
      .map(Number);
  } catch {
    return [];
  }
}
