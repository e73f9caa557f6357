import knex, { Knex } from 'knex';
import { Client } from 'pg';
import type { Logger } from '@rental/logger';

export type { Knex } from 'knex';

export interface Migration {
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
  /** The name it was applied under before a rename: a database migrated under it is upgraded without running it again. */
  formerName?: string;
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

/**
 * Gives each migration applied under its former name its current one in the migration table,
 * so knex finds it applied (no second run, no "migration directory is corrupt"). Safe when
 * several replicas start at once: a second update finds no row under the former name.
 */
async function renameAppliedMigrations(db: Knex, options: Pick<DatabaseOptions, 'schema' | 'migrations' | 'log'>): Promise<void> {
  const renames = Object.entries(options.migrations).flatMap(([name, migration]) => (migration.formerName ? [{ name, formerName: migration.formerName }] : []));
  if (renames.length === 0 || !(await db.schema.withSchema(options.schema).hasTable('knex_migrations'))) return;
  const renamed: string[] = [];
  for (const { name, formerName } of renames) {
    const rows = await db.withSchema(options.schema).table('knex_migrations').where({ name: formerName }).update({ name });
    if (rows > 0) renamed.push(`${formerName} → ${name}`);
  }
  if (renamed.length > 0) options.log.info({ schema: options.schema, renamed }, 'applied migrations renamed');
}

/** Connects, creates the schema and runs the service's migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Knex> {
  await ensureDatabaseExists(options.url);
  const db = connectDatabase(options);
  await db.raw('CREATE SCHEMA IF NOT EXISTS ??', [options.schema]).catch((error: { code?: string }) => {
    if (error.code !== UNIQUE_VIOLATION) throw error;
  });
  await renameAppliedMigrations(db, options);
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

/** A statement a worker runs hundreds of times a second. */
export interface HotStatement {
  /**
   * Named: each connection prepares it once and Postgres may settle on a generic plan after five
   * runs; only for statements whose best plan does not depend on their values (no LIMIT taken
   * from a value before a join). Unnamed: parsed and planned for its values at every run.
   */
  name?: string;
  /** SQL with positional parameters ($1, $2, …); tables resolve through the connection's search path. */
  text: string;
  /**
   * Planner settings for this statement only, where the planner misjudges it (unnamed only): set
   * with SET LOCAL in the implicit transaction of one simple query, so the values go in as literals.
   */
  planner?: Record<string, 'on' | 'off'>;
}

/**
 * `text` with its positional parameters ($1, $2, …) replaced by literals, for a simple query:
 * strings, finite numbers, null and arrays of strings; anything else is refused.
 */
export function inlineValues(text: string, values: unknown[], escapeLiteral: (value: string) => string): string {
  const literal = (value: unknown): string => {
    if (value === null) return 'NULL';
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    if (typeof value === 'string') return escapeLiteral(value);
    if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
      return escapeLiteral(`{${value.map((item) => `"${item.replace(/["\\]/g, '\\$&')}"`).join(',')}}`);
    }
    throw new Error(`no SQL literal for ${value === undefined ? 'undefined' : typeof value}`);
  };
  return text.replace(/\$(\d+)/g, (_match, index: string) => literal(values[Number(index) - 1]));
}

/**
 * Runs a statement directly on one of knex's pooled connections, skipping knex's query building;
 * a named one also skips Postgres's parsing and planning. Only for hot statements; everything
 * else stays with knex.
 */
export async function runHot<Row>(db: Knex, statement: HotStatement, values: unknown[]): Promise<Row[]> {
  const connection = (await db.client.acquireConnection()) as Client;
  try {
    if (statement.planner) {
      const settings = Object.entries(statement.planner)
        .map(([name, setting]) => `SET LOCAL ${name} = ${setting};`)
        .join(' ');
      const text = inlineValues(statement.text, values, (value) => connection.escapeLiteral(value));
      const results = (await connection.query(`${settings} ${text}`)) as unknown as { rows: Row[] }[];
      return results[results.length - 1]!.rows;
    }
    const result = await connection.query(statement.name ? { name: statement.name, text: statement.text, values } : { text: statement.text, values });
    return result.rows as Row[];
  } finally {
    await db.client.releaseConnection(connection);
  }
}
