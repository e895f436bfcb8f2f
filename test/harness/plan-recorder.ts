import type { Client, ClientBase } from 'pg';
import type { Queryable } from '@meter/read-model';

/** A node of an `EXPLAIN (ANALYZE, FORMAT JSON)` plan, the fields the plan tests read. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Cond'?: string;
  'Recheck Cond'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** The plan's scans of relations whose name starts with `prefix` (partitions included). */
export function scansOf(node: PlanNode, prefix: string): PlanNode[] {
  const own = node['Relation Name']?.startsWith(prefix) ? [node] : [];
  return [...own, ...(node.Plans ?? []).flatMap((child) => scansOf(child, prefix))];
}

/** The rows a scan read: those it returned and those it threw away, over all its loops. */
export const examined = (n: PlanNode) =>
  (n['Actual Rows'] + (n['Rows Removed by Filter'] ?? 0) + (n['Rows Removed by Index Recheck'] ?? 0)) * n['Actual Loops'];

/**
 * Runs each query for real and keeps its `EXPLAIN ANALYZE` plan: custom, or
 * generic as the gateway's prepared statements get them
 * (`plan_cache_mode=force_generic_plan`, partitions pruned at run time).
 */
export class PlanRecorder implements Queryable {
  readonly plans: { sql: string; plan: PlanNode }[] = [];
  private readonly cursors: { text: string; values: unknown[] }[] = [];

  constructor(
    private readonly client: Client,
    private readonly mode: 'custom' | 'generic',
  ) {}

  async query(sql: string, params?: unknown[]) {
    await this.explain(sql, params);
    return (await this.client.query(sql, params)).rows;
  }

  /** The client for a cursor (`streamExportDay`): its query is explained afterwards (`explainCursors`). */
  get cursorClient(): ClientBase {
    return new Proxy(this.client, {
      get: (target, key) =>
        key === 'query'
          ? (arg: { text?: string; values?: unknown[] }, ...rest: unknown[]) => {
              if (typeof arg.text === 'string') this.cursors.push({ text: arg.text, values: arg.values ?? [] });
              return (target.query as (...args: unknown[]) => unknown)(arg, ...rest);
            }
          : Reflect.get(target, key),
    });
  }

  async explainCursors() {
    for (const { text, values } of this.cursors.splice(0)) await this.explain(text, values);
  }

  private async explain(sql: string, params: unknown[] = []) {
    let rows: { 'QUERY PLAN': { Plan: PlanNode }[] }[];
    if (this.mode === 'custom') rows = (await this.client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params)).rows;
    else {
      const literal = (v: unknown) =>
        v === null ? 'NULL' : this.client.escapeLiteral(Array.isArray(v) ? `{${v.map((x) => x ?? 'NULL').join(',')}}` : String(v));
      await this.client.query(`SET plan_cache_mode = force_generic_plan`);
      await this.client.query(`PREPARE planned AS ${sql}`);
      try {
        const args = params.length > 0 ? `(${params.map(literal).join(', ')})` : '';
        rows = (await this.client.query(`EXPLAIN (ANALYZE, FORMAT JSON) EXECUTE planned${args}`)).rows;
      } finally {
        await this.client.query(`DEALLOCATE planned`);
        await this.client.query(`RESET plan_cache_mode`);
      }
    }
    this.plans.push({ sql, plan: rows[0]['QUERY PLAN'][0].Plan });
  }
}
