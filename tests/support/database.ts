import { Client } from 'pg';

/**
 * Rows of a stack's database, read directly for what no API shows. With `schema`, unqualified
 * table names are that service's (its search_path); without it, the query names the schemas.
 */
export async function rows<T = Record<string, unknown>>(databaseUrl: string, sql: string, values: unknown[] = [], schema?: string): Promise<T[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    if (schema) await client.query(`SET search_path TO ${schema}`);
    return (await client.query(sql, values)).rows as T[];
  } finally {
    await client.end();
  }
}
