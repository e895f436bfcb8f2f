import { Client } from 'pg';

/** One connection and `SELECT 1`: does the server named by the URL answer? */
export async function probePostgres(databaseUrl: string, timeoutMs = 3000): Promise<void> {
  const client = new Client({ connectionString: databaseUrl, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}
