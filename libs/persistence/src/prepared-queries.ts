import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import type { DataSource } from 'typeorm';

/**
 * Runs each distinct SQL text as a named prepared statement on the pool's
 * connections, so Postgres parses and plans it once per connection instead
 * of on every request. With `plan_cache_mode=force_generic_plan` on those
 * connections (see `ServiceStore.connectionOptions`) the plan is reused and
 * month partitions are pruned at execution time; planning a query over the
 * partitions otherwise costs more than running it.
 */
export class PreparedQueries {
  private readonly names = new Map<string, string>();

  constructor(private readonly pool: Pool) {}

  static of(dataSource: DataSource): PreparedQueries {
    const pool = (dataSource.driver as unknown as { master?: Pool }).master;
    if (!pool) throw new Error('the data source has no Postgres pool; initialize it first');
    return new PreparedQueries(pool);
  }

  // Same shape as DataSource.query: resolves to the rows.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async query(text: string, values: unknown[] = []): Promise<any> {
    let name = this.names.get(text);
    if (!name) {
      name = `q_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
      this.names.set(text, name);
    }
    return (await this.pool.query({ name, text, values })).rows;
  }
}
