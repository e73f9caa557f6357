import fs from 'node:fs';
import path from 'node:path';
import { Knex, Migration, openDatabase } from '@rental/db';
import { schemaOf } from '@rental/config';
import { CART_CHECKOUT_SCHEMA, cartCheckoutMigrations } from '@rental/cart-checkout';
import { caseWorkflowMigrations } from '@rental/case-workflow';
import { documentsMigrations } from '@rental/documents';
import { GATEWAY_SCHEMA, gatewayMigrations } from '@rental/gateway';
import { notificationsMigrations } from '@rental/notifications';
import { createLogger } from '@rental/logger';
import { dropDatabase } from '@rental/testkit';

// A migration renamed after it was applied keeps its former name (`formerName`), and the
// database layer renames its row in the migration table before knex reads it: a database
// migrated under the former names upgrades without running any migration again.

const POSTGRES = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432';
const repo = path.resolve(__dirname, '..', '..');

const SERVICES: { name: string; schema: string; migrations: Record<string, Migration> }[] = [
  { name: 'gateway', schema: GATEWAY_SCHEMA, migrations: gatewayMigrations },
  { name: 'case-workflow', schema: schemaOf('case-workflow'), migrations: caseWorkflowMigrations },
  { name: 'cart-checkout', schema: CART_CHECKOUT_SCHEMA, migrations: cartCheckoutMigrations },
  { name: 'documents', schema: schemaOf('documents'), migrations: documentsMigrations },
  { name: 'notifications', schema: schemaOf('notifications'), migrations: notificationsMigrations },
];

interface MigrationRow {
  id: number;
  name: string;
  batch: number;
}

describe('renamed migrations', () => {
  const log = createLogger('migration-renames-test', 'silent');
  const databases: string[] = [];
  const opened: Knex[] = [];

  afterAll(async () => {
    await Promise.all(opened.map((db) => db.destroy()));
    for (const url of databases) await dropDatabase(url);
  });

  it.each(SERVICES)(
    'when the $name database was migrated under the former names, then it upgrades under the current names and runs no migration again',
    async ({ name, schema, migrations }) => {
      const renamed = Object.entries(migrations).filter(([, migration]) => migration.formerName);
      expect(renamed.length).toBeGreaterThan(0);
      const url = `${POSTGRES}/rental_renames_${name.replace('-', '_')}_${process.pid}_${Date.now()}`;
      databases.push(url);
      const open = (record: Record<string, Migration>) => openDatabase({ url, schema, migrations: record, log });
      const rows = (db: Knex) => db.withSchema(schema).table<MigrationRow>('knex_migrations').select('id', 'name', 'batch').orderBy('id');

      // The code before the rename: the same migrations under their former names.
      const former = Object.fromEntries(Object.entries(migrations).map(([current, { up, down, formerName }]) => [formerName ?? current, { up, down }]));
      const old = await open(former);
      const before = await rows(old);
      await old.destroy();
      expect(before.map((row) => row.name)).toEqual(Object.keys(former).sort());

      const db = await open(migrations);
      opened.push(db);
      const currentOf = new Map(renamed.map(([current, migration]) => [migration.formerName!, current]));
      expect(await rows(db)).toEqual(before.map((row) => ({ ...row, name: currentOf.get(row.name) ?? row.name })));
      expect((await rows(db)).map((row) => row.name)).toEqual(Object.keys(migrations).sort());
    },
  );

  it('when a migration file is named, then its name says what it holds, with no issue tag such as lender15 or zt20', () => {
    const folders = ['gateway', ...fs.readdirSync(path.join(repo, 'services')).map((service) => path.join('services', service))];
    const files = folders.flatMap((folder) => {
      const dir = path.join(repo, folder, 'src', 'migrations');
      return fs.existsSync(dir) ? fs.readdirSync(dir).filter((file) => file !== 'index.ts') : [];
    });
    expect(files.length).toBeGreaterThan(20);
    expect(files.filter((file) => /^\d{4}_[a-z]+\d+_/.test(file))).toEqual([]);
  });
});
