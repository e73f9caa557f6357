import { Knex, isoTimestampSql } from '@rental/db';
import { type RequestItem, TEMPLATE_DOWNLOAD_PATH, VISIBLE_ITEM } from '../domain/model';
import type { CaseItemsJson, ItemStore, NewItem, OverdueStage } from '../domain/ports';
import { ItemRow, toItem } from './rows';

const TEMPLATE_DOWNLOAD_URL = `CASE WHEN ri.item_type = 'fill_and_return' AND ri.template_object_key <> ''
  THEN replace(replace('${TEMPLATE_DOWNLOAD_PATH}', '{financingCaseId}', ri.financing_case_id), '{templateId}', ri.id::text) END`;

/**
 * An item in the list shape of case-workflow's case list (presentItem in its presenters.ts: the
 * same members in the same order), with the values presentItem here and the RequestItem message
 * give it. callbackRequestId is there only where the item is linked to a callback request: json
 * (unlike jsonb, which reorders keys) cannot drop a member, so the object is built with or without it.
 */
const listItemJson = (callbackRequestIdMember: string) => `json_build_object('id', ri.id, 'type', ri.item_type, 'label', ri.label,
  'status', ri.status, 'category', ri.category, 'templateDownloadUrl', ${TEMPLATE_DOWNLOAD_URL}, ${callbackRequestIdMember}
  'callbackStatus', coalesce(cr.status, 'none'), 'requestedAt', ${isoTimestampSql('ri.requested_at')}, 'dueAt', ${isoTimestampSql('ri.due_at')},
  'optional', ri.optional)`;

const listOfType = (type: string) => `coalesce(json_agg(item ORDER BY id) FILTER (WHERE item_type = '${type}'), '[]')`;

/**
 * The lists of each case as its case list prints them, built in one statement, so the items pass
 * through documents and case-workflow as text. Visible to the partner as isVisibleItem says
 * (VISIBLE_ITEM's values are bound after the cases and the partner).
 */
const LIST_JSON_BY_CASES_OF_PARTNER = `
SELECT financing_case_id,
  json_build_object('requestedDocuments', ${listOfType('document')}, 'requestedFillAndReturns', ${listOfType('fill_and_return')},
    'requestedInformation', ${listOfType('information')}, 'requestedItems', json_agg(item ORDER BY id))::text AS lists_json
FROM (
  SELECT ri.id, ri.financing_case_id, ri.item_type,
    CASE WHEN ri.callback_request_id IS NULL THEN ${listItemJson('')} ELSE ${listItemJson("'callbackRequestId', ri.callback_request_id,")} END AS item
  FROM requested_items ri
  LEFT JOIN callback_requests cr ON cr.id = ri.callback_request_id
  WHERE ri.financing_case_id = ANY(?) AND ri.partner_id = ? AND ri.internal_only = ? AND ri.target_audience = ?
) AS visible
GROUP BY financing_case_id`;

export class ItemRepository implements ItemStore {
  constructor(private readonly db: Knex) {}

  /** Items with the status of the callback request they are linked to. */
  private select(db: Knex | Knex.Transaction = this.db) {
    return db('requested_items')
      .leftJoin('callback_requests', 'callback_requests.id', 'requested_items.callback_request_id')
      .select('requested_items.*', 'callback_requests.status as callback_status');
  }

  create(items: NewItem[], creationKey: string | null): Promise<{ items: RequestItem[]; repeated: boolean }> {
    return this.db.transaction(async (trx) => {
      const financingCaseId = items[0]?.financingCaseId;
      if (creationKey && financingCaseId) {
        // One creation per key and case at a time; a repeat waits for the first and finds its items.
        await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`requested_items:${financingCaseId}:${creationKey}`]);
        const earlier: ItemRow[] = await this.select(trx)
          .where({ 'requested_items.financing_case_id': financingCaseId, 'requested_items.creation_key': creationKey })
          .orderBy('requested_items.id');
        if (earlier.length > 0) return { items: earlier.map(toItem), repeated: true };
      }
      const rows = (await trx('requested_items')
        .insert(
          items.map((item) => ({
            item_type: item.itemType,
            financing_case_id: item.financingCaseId,
            partner_id: item.partnerId,
            label: item.label,
            category: item.category,
            optional: item.optional,
            target_audience: item.targetAudience,
            internal_only: item.internalOnly,
            question: item.question,
            template_object_key: item.template?.objectKey ?? null,
            template_file_name: item.template?.fileName ?? null,
            template_file_size: item.template?.fileSize ?? null,
            template_mime_type: item.template?.mimeType ?? null,
            template_original_name: item.template?.originalName ?? null,
            requested_at: item.requestedAt,
            due_at: item.dueAt,
            updated_at: item.requestedAt,
            creation_key: creationKey,
          })),
        )
        .returning('*')) as ItemRow[];
      const keys = items.flatMap((item) => (item.template ? [item.template.objectKey] : []));
      if (keys.length > 0) await trx('pending_objects').whereIn('object_key', keys).delete();
      return { items: rows.sort((a, b) => a.id - b.id).map(toItem), repeated: false };
    });
  }

  async find(id: number): Promise<RequestItem | undefined> {
    const row: ItemRow | undefined = await this.select().where('requested_items.id', id).first();
    return row ? toItem(row) : undefined;
  }

  async listByCasesOfPartner(financingCaseIds: string[], partnerId: string): Promise<RequestItem[]> {
    if (financingCaseIds.length === 0) return [];
    const rows: ItemRow[] = await this.select()
      .whereIn('requested_items.financing_case_id', financingCaseIds)
      .where('requested_items.partner_id', partnerId)
      .orderBy('requested_items.id');
    return rows.map(toItem);
  }

  async listJsonByCasesOfPartner(financingCaseIds: string[], partnerId: string): Promise<CaseItemsJson[]> {
    if (financingCaseIds.length === 0) return [];
    const { rows }: { rows: { financing_case_id: string; lists_json: string }[] } = await this.db.raw(LIST_JSON_BY_CASES_OF_PARTNER, [
      financingCaseIds,
      partnerId,
      VISIBLE_ITEM.internalOnly,
      VISIBLE_ITEM.targetAudience,
    ]);
    return rows.map((row) => ({ financingCaseId: row.financing_case_id, listsJson: row.lists_json }));
  }

  async respond(id: number, response: string | null, now: string): Promise<RequestItem | undefined> {
    const updated = await this.db('requested_items')
      .where({ id, status: 'pending', item_type: 'information' })
      .update({ response, status: 'provided', provided_at: now, updated_at: now });
    return updated > 0 ? this.find(id) : undefined;
  }

  async markNotAvailable(id: number, now: string): Promise<RequestItem | undefined> {
    const updated = await this.db('requested_items').where({ id, status: 'pending' }).update({ status: 'not_available', updated_at: now });
    return updated > 0 ? this.find(id) : undefined;
  }

  async listForCustomer(financingCaseId: string): Promise<RequestItem[]> {
    const rows: ItemRow[] = await this.select()
      .where('requested_items.financing_case_id', financingCaseId)
      .where('requested_items.target_audience', 'customer')
      .where('requested_items.internal_only', false)
      .orderBy('requested_items.id');
    return rows.map(toItem);
  }

  async listOverdue(dueBefore: string, stage: OverdueStage, limit: number, only?: { partnerId: string; financingCaseIds: string[] }): Promise<RequestItem[]> {
    const query = this.select();
    if (only) query.where('requested_items.partner_id', only.partnerId).whereIn('requested_items.financing_case_id', only.financingCaseIds);
    const rows: ItemRow[] = await query
      .where('requested_items.status', 'pending')
      .where('requested_items.optional', false)
      .whereIn('requested_items.target_audience', ['partner', 'customer'])
      .where('requested_items.due_at', '<=', dueBefore)
      .whereNull(stage === 'notice' ? 'requested_items.overdue_notified_at' : 'requested_items.overdue_escalated_at')
      .orderBy('requested_items.due_at')
      .limit(limit);
    return rows.map(toItem);
  }

  async markOverdue(ids: number[], stage: OverdueStage, at: string): Promise<number> {
    if (ids.length === 0) return 0;
    const column = stage === 'notice' ? 'overdue_notified_at' : 'overdue_escalated_at';
    return this.db('requested_items')
      .whereIn('id', ids)
      .whereNull(column)
      .update({ [column]: at });
  }
}
