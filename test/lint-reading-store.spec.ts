import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Where the readings table may be named: the writer's store in ingest, the query side's readings folder, the schema's migrations. */
const READING_STORES = [/^apps\/ingest\/src\/reading-store\//, /^libs\/read-model\/src\/readings\//, /^apps\/ingest\/src\/migrations\//];

/** The source files (tests aside) outside the reading stores that name `ingest.readings`, the compact store, their partitions or the function creating them. */
function namingReadingsElsewhere(files: readonly string[], read: (file: string) => string): string[] {
  return files.filter(
    (file) =>
      !file.endsWith('.spec.ts') &&
      !READING_STORES.some((store) => store.test(file)) &&
      /\bingest\.(readings|reading_days|ensure_readings_partition)/.test(read(file)),
  );
}

/**
 * How readings are stored is one module on each side (docs/read-model.md):
 * ingest's reading store writes them, the query package's readings folder
 * reads them. A new storage replaces those two; everything else asks them.
 */
describe('the readings table is named by the two reading stores only', () => {
  it('holds for the tree', () => {
    const sources = execFileSync('git', ['ls-files', 'apps/*.ts', 'libs/*.ts'], { encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(namingReadingsElsewhere(sources, (file) => readFileSync(file, 'utf8'))).toEqual([]);
  });

  it('notices a query elsewhere, not in the stores or in tests', () => {
    const planted = new Map([
      ['apps/gateway/src/dashboard/fixture.ts', 'db.query(`SELECT max(read_at) FROM ingest.readings WHERE org_id = $1`)'],
      ['apps/ingest/src/alerts/fixture.ts', "db.query('SELECT ingest.ensure_readings_partition($1)')"],
      ['apps/ingest/src/reading-store/fixture.ts', 'db.query(`DELETE FROM ingest.readings WHERE org_id = $1`)'],
      ['libs/read-model/src/readings/fixture.ts', 'db.query(`SELECT max(read_at) FROM ingest.readings WHERE org_id = $1`)'],
      ['apps/gateway/src/dashboard/fixture.int.spec.ts', 'db.query(`SELECT count(*) FROM ingest.readings`)'],
      ['apps/gateway/src/dashboard/other.ts', 'db.query(`SELECT count(*) FROM ingest.readings_2026_01`)'],
    ]);
    expect(namingReadingsElsewhere([...planted.keys()], (file) => planted.get(file)!)).toEqual([
      'apps/gateway/src/dashboard/fixture.ts',
      'apps/ingest/src/alerts/fixture.ts',
      'apps/gateway/src/dashboard/other.ts',
    ]);
  });
});
