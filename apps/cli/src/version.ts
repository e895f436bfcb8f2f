import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The platform's version: the `version` of the nearest package.json above this file (in the sources and in dist/). */
export function platformVersion(from: string = __dirname): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? 'unknown';
    if (dirname(dir) === dir) return 'unknown';
  }
}
