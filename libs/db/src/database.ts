import knex, { Knex } from 'knex';
import { Client } from 'pg';
import type { Logger } from '@rental/logger';

export type { Knex } from 'knex';

export interface Migration {
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

export interface DatabaseOptions {
  url: string;
  /** The one schema this service owns. */
  schema: string;
  /** Migrations by name; they run in name order. */
  migrations: Record<string, Migration>;
  log: Logger;
  poolMax?: number;
}

const DUPLICATE_DATABASE = '42P04';
const UNIQUE_VIOLATION = '23505';

function maintenanceUrl(url: string): string {
  const parsed = new URL(url);
  parsed.pathname = '/postgres';
  return parsed.toString();
}

/** Creates the database of the URL when it does not exist; safe when several processes race. */
export async function ensureDatabaseExists(url: string): Promise<void> {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  const client = new Client({ connectionString: maintenanceUrl(url) });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`).catch((error: { code?: string }) => {
        if (error.code !== DUPLICATE_DATABASE && error.code !== UNIQUE_VIOLATION) throw error;
      });
    }
  } finally {
    await client.end();
  }
}

export function connectDatabase(options: Omit<DatabaseOptions, 'migrations' | 'log'>): Knex {
  return knex({
    client: 'pg',
    connection: options.url,
    searchPath: [options.schema],
    // Fail fast while Postgres is down, so requests answer 503 instead of hanging.
    acquireConnectionTimeout: 3000,
    pool: { min: 0, max: options.poolMax ?? 10, idleTimeoutMillis: 30_000 },
  });
}

/** Connects, creates the schema and runs the service's migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Knex> {
  await ensureDatabaseExists(options.url);
  const db = connectDatabase(options);
  await db.raw('CREATE SCHEMA IF NOT EXISTS ??', [options.schema]).catch((error: { code?: string }) => {
    if (error.code !== UNIQUE_VIOLATION) throw error;
  });
  const names = Object.keys(options.migrations).sort();
  const [, applied] = await db.migrate.latest({
    schemaName: options.schema,
    tableName: 'knex_migrations',
    migrationSource: {
      getMigrations: async () => names,
      getMigrationName: (name: string) => name,
      getMigration: async (name: string) => options.migrations[name] as Knex.Migration,
    },
  });
  if (applied.length > 0) options.log.info({ schema: options.schema, applied }, 'migrations applied');
  return db;
}

export async function pingDatabase(db: Knex): Promise<boolean> {
  try {
    await db.raw('SELECT 1');
    return true;
  } catch {
    return false;
  }
}
