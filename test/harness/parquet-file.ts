import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A Parquet file as DuckDB reads it. */
export interface DuckDbParquet {
  /** Each column's DuckDB type, in file order: `DATE`, `DECIMAL(18,3)`, `BIGINT`, `VARCHAR`... */
  types: Record<string, string>;
  /** Every row, each value as DuckDB casts it to text (exact for DECIMAL and DATE), null as null. */
  rows: Record<string, string | null>[];
}

/**
 * Reads a Parquet file's bytes with DuckDB (`read_parquet`), as a data team
 * would: no CAST of ours, the types are the file's. DuckDB is loaded on first
 * use, so importing the harness does not load its native module.
 */
export async function readParquetWithDuckDb(bytes: Buffer): Promise<DuckDbParquet> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const dir = await mkdtemp(join(tmpdir(), 'meter-parquet-'));
  const path = join(dir, 'file.parquet');
  await writeFile(path, bytes);
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const source = `read_parquet('${path.replaceAll("'", "''")}')`;
    const described = await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`);
    const columns = (await described.getRowObjectsJS()).map((r) => [String(r.column_name), String(r.column_type)] as const);
    const asText = columns.map(([name]) => `CAST("${name}" AS VARCHAR) AS "${name}"`).join(', ');
    const read = await connection.runAndReadAll(`SELECT ${asText} FROM ${source}`);
    const rows = (await read.getRowObjectsJS()) as Record<string, string | null>[];
    return { types: Object.fromEntries(columns), rows };
  } finally {
    connection.closeSync();
    instance.closeSync();
    await rm(dir, { recursive: true, force: true });
  }
}
