import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * What `meter_build_info{version,commit}` says: the `version` of the
 * platform's package.json (the nearest above this file, in the sources and
 * in dist/) and the commit checked out beside it (`.git/HEAD`), or
 * `unknown` where there is no checkout (an image built without `.git`).
 */
export function buildInfo(from: string = __dirname): { version: string; commit: string } {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const version = (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? 'unknown';
      return { version, commit: commitAt(dir) };
    }
    if (dirname(dir) === dir) return { version: 'unknown', commit: 'unknown' };
  }
}

function commitAt(root: string): string {
  try {
    let gitDir = join(root, '.git');
    // A worktree's .git is a file naming its git directory.
    if (!existsSync(join(gitDir, 'HEAD')))
      gitDir = readFileSync(gitDir, 'utf8')
        .replace(/^gitdir:\s*/, '')
        .trim();
    const head = readFileSync(join(gitDir, 'HEAD'), 'utf8').trim();
    if (!head.startsWith('ref: ')) return head.slice(0, 12);
    const ref = head.slice(5);
    const common = existsSync(join(gitDir, 'commondir')) ? join(gitDir, readFileSync(join(gitDir, 'commondir'), 'utf8').trim()) : gitDir;
    for (const dir of [gitDir, common]) {
      if (existsSync(join(dir, ref))) return readFileSync(join(dir, ref), 'utf8').trim().slice(0, 12);
    }
    const packed = existsSync(join(common, 'packed-refs')) ? readFileSync(join(common, 'packed-refs'), 'utf8') : '';
    const line = packed.split('\n').find((l) => l.endsWith(` ${ref}`));
    return line ? line.slice(0, 12) : 'unknown';
  } catch {
    return 'unknown';
  }
}
