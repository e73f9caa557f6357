import type { Knex } from '@rental/db';
import type { CaseCleanup } from '../domain/ports';

/** Requests still open for the partner or under review; sent, accepted and not_available ones stay. */
const OPEN_STATUSES = ['pending', 'provided', 'rejected'];

/** The rows of `table` with these ids deleted (none asked: no statement). */
async function deleteRows(trx: Knex.Transaction, table: string, rows: { id: number }[]): Promise<void> {
  if (rows.length > 0)
    await trx(table)
      .whereIn(
        'id',
        rows.map((row) => row.id),
      )
      .delete();
}

export class CaseCleanupRepository implements CaseCleanup {
  constructor(private readonly db: Knex) {}

  resetCase(financingCaseId: string): Promise<{ removedItems: number; removedDocuments: number; objectKeys: string[] }> {
    return this.db.transaction(async (trx) => {
      const items: { id: number; template_object_key: string | null }[] = await trx('requested_items')
        .where({ financing_case_id: financingCaseId })
        .whereIn('status', OPEN_STATUSES)
        .whereNull('transmitted_to_lender_at')
        .select('id', 'template_object_key')
        .forUpdate();
      const documents: { id: number; object_key: string }[] = await trx('documents')
        .where({ financing_case_id: financingCaseId, simulated: true })
        .select('id', 'object_key')
        .forUpdate();
      // Documents that answered a removed request stay (they are the partner's uploads); the link goes with the request.
      await deleteRows(trx, 'documents', documents);
      await deleteRows(trx, 'requested_items', items);
      const objectKeys = [
        ...items.flatMap((item) => (item.template_object_key ? [item.template_object_key] : [])),
        ...documents.map((document) => document.object_key),
      ];
      if (objectKeys.length > 0) {
        await trx('pending_objects')
          .insert(objectKeys.map((key) => ({ object_key: key, reason: 'delete' })))
          .onConflict('object_key')
          .merge({ reason: 'delete' });
      }
      return { removedItems: items.length, removedDocuments: documents.length, objectKeys };
    });
  }

  applyCancel(eventId: string, financingCaseId: string, now: string): Promise<{ applied: boolean; invalidatedTokens: number; closedCallbacks: number }> {
    return this.db.transaction(async (trx) => {
      const inserted = await trx('consumed_events').insert({ event_id: eventId }).onConflict('event_id').ignore().returning('event_id');
      if (inserted.length === 0) return { applied: false, invalidatedTokens: 0, closedCallbacks: 0 };
      const invalidatedTokens = await trx('document_tokens')
        .where({ financing_case_id: financingCaseId })
        .whereNull('invalidated_at')
        .update({ invalidated_at: now });
      const closedCallbacks = await trx('callback_requests')
        .where({ financing_case_id: financingCaseId, status: 'open' })
        .update({ status: 'closed', closed_at: now });
      return { applied: true, invalidatedTokens, closedCallbacks };
    });
  }
}
