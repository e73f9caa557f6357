import type { Knex } from '@rental/db';
import type { FinancingDocument, ItemType, RequestItem, CallbackRequestView, OpenItemCount } from '../domain/model';
import type { OperatorFiles } from '../domain/ports';
import { DocumentRow, ItemRow, toDocument, toItem } from './rows';

interface CallbackRow {
  id: number;
  financing_case_id: string;
  status: 'open' | 'closed';
  note: string | null;
  created_at: Date;
  closed_at: Date | null;
}

/** Required partner- or customer-audience items still pending after their due date (the clock's rule). */
function whereOverdue(query: Knex.QueryBuilder, now: string): Knex.QueryBuilder {
  return query
    .where('status', 'pending')
    .where('optional', false)
    .whereIn('target_audience', ['partner', 'customer'])
    .whereNotNull('due_at')
    .where('due_at', '<', now);
}

export class OperatorRepository implements OperatorFiles {
  constructor(private readonly db: Knex) {}

  async countOpenItems(financingCaseIds: string[], now: string): Promise<OpenItemCount[]> {
    if (financingCaseIds.length === 0) return [];
    const rows: { financing_case_id: string; open_items: string; overdue_items: string }[] = await this.db('requested_items')
      .whereIn('financing_case_id', financingCaseIds)
      .groupBy('financing_case_id')
      .select('financing_case_id')
      .select(this.db.raw("count(*) filter (where status = 'pending') as open_items"))
      .select(
        this.db.raw(
          "count(*) filter (where status = 'pending' and not optional and target_audience in ('partner', 'customer') and due_at is not null and due_at < ?) as overdue_items",
          [now],
        ),
      );
    return financingCaseIds.map((financingCaseId) => {
      const row = rows.find((candidate) => candidate.financing_case_id === financingCaseId);
      return { financingCaseId, openItems: Number(row?.open_items ?? 0), overdueItems: Number(row?.overdue_items ?? 0) };
    });
  }

  async overdueCaseIds(now: string): Promise<string[]> {
    const rows: { financing_case_id: string }[] = await whereOverdue(this.db('requested_items'), now).distinct('financing_case_id');
    return rows.map((row) => row.financing_case_id);
  }

  verify(documentId: number, now: string): Promise<FinancingDocument | undefined> {
    return this.db.transaction(async (trx) => {
      const [row] = (await trx('documents')
        .where({ id: documentId, review_status: 'PENDING_REVIEW' })
        .update({ review_status: 'VERIFIED' })
        .returning('*')) as DocumentRow[];
      if (!row) return undefined;
      if (row.requested_item_id !== null) {
        await trx('requested_items')
          .where({ id: row.requested_item_id })
          .whereIn('status', ['pending', 'provided', 'rejected'])
          .update({ status: 'accepted', updated_at: now });
      }
      return toDocument(row);
    });
  }

  private async view(db: Knex | Knex.Transaction, row: CallbackRow): Promise<CallbackRequestView> {
    const items: { id: number; item_type: ItemType }[] = await db('requested_items')
      .where({ callback_request_id: row.id })
      .orderBy('id')
      .select('id', 'item_type');
    return {
      id: row.id,
      financingCaseId: row.financing_case_id,
      status: row.status,
      note: row.note,
      createdAt: row.created_at.toISOString(),
      closedAt: row.closed_at ? row.closed_at.toISOString() : null,
      items: items.map((item) => ({ type: item.item_type, id: item.id })),
    };
  }

  createCallbackRequest(financingCaseId: string, partnerId: string, itemIds: number[], note: string | null, now: string): Promise<CallbackRequestView> {
    return this.db.transaction(async (trx) => {
      const [row] = (await trx('callback_requests')
        .insert({ financing_case_id: financingCaseId, partner_id: partnerId, status: 'open', note, created_at: now })
        .returning('*')) as CallbackRow[];
      await trx('requested_items')
        .whereIn('id', itemIds)
        .update({ callback_request_id: (row as CallbackRow).id, updated_at: now });
      return this.view(trx, row as CallbackRow);
    });
  }

  async findCallbackRequest(id: number): Promise<CallbackRequestView | undefined> {
    const row: CallbackRow | undefined = await this.db('callback_requests').where({ id }).first();
    return row ? this.view(this.db, row) : undefined;
  }

  async closeCallbackRequest(id: number, now: string): Promise<CallbackRequestView | undefined> {
    const [row] = (await this.db('callback_requests')
      .where({ id, status: 'open' })
      .update({ status: 'closed', closed_at: now })
      .returning('*')) as CallbackRow[];
    return row ? this.view(this.db, row) : undefined;
  }

  async markTransmitted(itemIds: number[], now: string): Promise<RequestItem[]> {
    await this.db('requested_items')
      .whereIn('id', itemIds)
      .whereNull('transmitted_to_lender_at')
      .update({ status: 'sent', transmitted_to_lender_at: now, updated_at: now });
    const rows: ItemRow[] = await this.db('requested_items')
      .leftJoin('callback_requests', 'callback_requests.id', 'requested_items.callback_request_id')
      .whereIn('requested_items.id', itemIds)
      .orderBy('requested_items.id')
      .select('requested_items.*', 'callback_requests.status as callback_status');
    return rows.map(toItem);
  }
}
