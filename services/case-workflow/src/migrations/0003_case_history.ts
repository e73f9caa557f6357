import type { Knex } from '@rental/db';

/** Every change of a case from now on, whoever made it: the approval team's history view. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('case_history', (table) => {
    table.bigIncrements('id');
    table.string('financing_case_id', 26).notNullable().references('id').inTable('financing_cases').onDelete('CASCADE');
    table.timestamp('at', { useTz: true }).notNullable();
    table.string('actor_type', 16).notNullable();
    table.string('actor_id', 128);
    table.string('actor_name', 255);
    table.string('action', 64).notNullable();
    table.string('resource_type', 32);
    table.string('from_status', 64);
    table.string('to_status', 64);
    table.text('reason');
    table.jsonb('details');
    table.index(['financing_case_id', 'id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('case_history');
}
