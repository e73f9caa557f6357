import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knex } from '@rental/db';
import type { SeedFile } from './fixture';

/**
 * Stands in for the distribution hubs' SLA API in the local stack. Its data comes from seed
 * files and lives in its own schema, so it survives a restart of the stack.
 */
export const HUB_STUB_SCHEMA = 'hub_stub';

async function migrateHubStub(db: Knex): Promise<void> {
  await db.raw('CREATE SCHEMA IF NOT EXISTS ??', [HUB_STUB_SCHEMA]);
  if (!(await db.schema.withSchema(HUB_STUB_SCHEMA).hasTable('hubs'))) {
    await db.schema.withSchema(HUB_STUB_SCHEMA).createTable('hubs', (table) => {
      table.string('id', 100).primary();
      table.integer('response_delay_ms').notNullable().defaultTo(0);
    });
    await db.schema.withSchema(HUB_STUB_SCHEMA).createTable('sla_files', (table) => {
      table.string('hub_id', 100).notNullable();
      table.string('file_id', 200).notNullable();
      table.string('name', 300).notNullable();
      table.boolean('deleted').notNullable();
      table.primary(['hub_id', 'file_id']);
    });
  }
}

export async function seedHubStub(db: Knex, hubs: SeedFile['distributionHubs']): Promise<void> {
  await migrateHubStub(db);
  await db.transaction(async (trx) => {
    for (const hub of hubs) {
      await trx
        .withSchema(HUB_STUB_SCHEMA)
        .table('hubs')
        .insert({ id: hub.id, response_delay_ms: hub.responseDelayMs ?? 0 })
        .onConflict('id')
        .merge();
      for (const file of hub.slaFiles) {
        await trx
          .withSchema(HUB_STUB_SCHEMA)
          .table('sla_files')
          .insert({ hub_id: hub.id, file_id: file.fileId, name: file.name, deleted: file.deleted })
          .onConflict(['hub_id', 'file_id'])
          .merge();
      }
    }
  });
}

export async function startHubStub(db: Knex, port: number, host = '127.0.0.1'): Promise<{ url: string; close(): Promise<void> }> {
  await migrateHubStub(db);
  const server = http.createServer(async (req, res) => {
    const match = /^\/hubs\/([^/]+)\/sla-files$/.exec(req.url ?? '');
    if (req.method !== 'GET' || !match) {
      res.writeHead(404).end();
      return;
    }
    try {
      const hubId = decodeURIComponent(match[1] ?? '');
      const hub = await db.withSchema(HUB_STUB_SCHEMA).table('hubs').where({ id: hubId }).first();
      if (!hub) {
        res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":"unknown hub"}');
        return;
      }
      const files = await db.withSchema(HUB_STUB_SCHEMA).table('sla_files').where({ hub_id: hubId }).orderBy('file_id');
      const body = JSON.stringify(
        files.map((file: { file_id: string; name: string; deleted: boolean }) => ({ fileId: file.file_id, name: file.name, deleted: file.deleted })),
      );
      setTimeout(() => res.writeHead(200, { 'Content-Type': 'application/json' }).end(body), hub.response_delay_ms);
    } catch {
      res.writeHead(503).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
