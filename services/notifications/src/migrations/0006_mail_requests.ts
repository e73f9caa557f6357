import type { Knex } from '@rental/db';
import { mailQueueColumns } from './mail-queue-columns';

/** The name it was applied under before it was named for what it holds; a database migrated then upgrades without running it again. */
export const formerName = '0006_customer17_mail_requests';

/** Mails other services ask for (mail.requested): stored once by id, then sent like the event mails. */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('mail_requests', (table) => {
    table.string('id', 100).primary();
    table.string('kind', 40).notNullable();
    // Exactly one of them: a partner (its contact address is looked up when sending) or an address.
    table.string('partner_id', 100);
    table.string('recipient_email', 320);
    table.text('subject').notNullable();
    table.text('body').notNullable();
    table.string('financing_case_id', 26);
    mailQueueColumns(db, table);
  });
  await db.raw("CREATE INDEX mail_requests_due ON mail_requests (next_attempt_at) WHERE status = 'pending'");
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('mail_requests');
}
