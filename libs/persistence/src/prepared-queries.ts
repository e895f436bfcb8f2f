import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
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

  constructor(private readonly dataSource: DataSource) {}

  static of(dataSource: DataSource): PreparedQueries {
    return new PreparedQueries(dataSource);
  }

  // Same shape as DataSource.query: resolves to the rows.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async query(text: string, values: unknown[] = []): Promise<any> {
    let name = this.names.get(text);
    if (!name) {
      name = `q_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
      this.names.set(text, name);
    }
    // A query runner's connection is TypeORM's public way to the pool's
    // client, the one that can run a named statement.
    const runner = this.dataSource.createQueryRunner();
    try {
      const client = (await runner.connect()) as PoolClient;
      return (await client.query({ name, text, values })).rows;
    } finally {
      await runner.release();
    }
  }
}
