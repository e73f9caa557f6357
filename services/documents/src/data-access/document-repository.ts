import { Knex, isUniqueViolation } from '@rental/db';
import { acceptsUpload } from '../domain/model';
import type { FinancingDocument } from '../domain/model';
import type { DocumentStore, NewDocument, RecordUploadResult, RejectResult } from '../domain/ports';
import { DocumentRow, ItemRow, toDocument, toItem } from './rows';

const ONE_SIGNED_CONTRACT = 'documents_one_simulated_signed_contract';
const ONE_PROVIDER_SIGNED_CONTRACT = 'documents_one_provider_signed_contract';

function toRow(document: NewDocument) {
  return {
    financing_case_id: document.financingCaseId,
    partner_id: document.partnerId,
    original_name: document.originalName,
    mime_type: document.mimeType,
    file_size: document.fileSize,
    category: document.category,
    description: document.description,
    uploaded_at: document.uploadedAt,
    uploaded_by: document.uploadedBy,
    review_status: document.reviewStatus,
    object_key: document.objectKey,
    requested_item_id: document.requestedItemId,
    simulated: document.simulated,
    signed: document.signed,
  };
}

export class DocumentRepository implements DocumentStore {
  constructor(private readonly db: Knex) {}

  async find(id: number): Promise<FinancingDocument | undefined> {
    const row: DocumentRow | undefined = await this.db('documents').where({ id }).first();
    return row ? toDocument(row) : undefined;
  }

  async listByCase(financingCaseId: string): Promise<FinancingDocument[]> {
    const rows: DocumentRow[] = await this.db('documents')
      .where({ financing_case_id: financingCaseId })
      .orderBy([{ column: 'uploaded_at' }, { column: 'id' }]);
    return rows.map(toDocument);
  }

  async listByItems(itemIds: number[]): Promise<FinancingDocument[]> {
    if (itemIds.length === 0) return [];
    const rows: DocumentRow[] = await this.db('documents')
      .whereIn('requested_item_id', itemIds)
      .orderBy([{ column: 'uploaded_at' }, { column: 'id' }]);
    return rows.map(toDocument);
  }

  recordUpload(document: NewDocument): Promise<RecordUploadResult> {
    return this.db.transaction(async (trx): Promise<RecordUploadResult> => {
      const itemId = document.requestedItemId;
      if (itemId !== null) {
        // The row lock orders two uploads for one request: the second supersedes the first.
        const item: ItemRow | undefined = await trx('requested_items').where({ id: itemId }).forUpdate().first();
        if (!item || !acceptsUpload(toItem(item))) return { outcome: 'item_closed' };
      }
      const [row] = (await trx('documents').insert(toRow(document)).returning('*')) as DocumentRow[];
      if (itemId !== null) {
        await trx('documents')
          .where({ requested_item_id: itemId })
          .whereNot({ id: row.id })
          .whereIn('review_status', ['PENDING_REVIEW', 'VERIFIED'])
          .update({ review_status: 'SUPERSEDED', superseded_by: row.id });
        await trx('requested_items').where({ id: itemId }).update({ status: 'provided', provided_at: document.uploadedAt, updated_at: document.uploadedAt });
      }
      await trx('pending_objects').where({ object_key: document.objectKey }).delete();
      return { outcome: 'stored', document: toDocument(row) };
    });
  }

  async findSimulatedSignedContract(financingCaseId: string): Promise<FinancingDocument | undefined> {
    const row: DocumentRow | undefined = await this.db('documents')
      .where({ financing_case_id: financingCaseId, category: 'signed_contract', simulated: true })
      .first();
    return row ? toDocument(row) : undefined;
  }

  async findProviderSignedContract(financingCaseId: string): Promise<FinancingDocument | undefined> {
    const row: DocumentRow | undefined = await this.db('documents')
      .where({ financing_case_id: financingCaseId, category: 'signed_contract', simulated: false })
      .first();
    return row ? toDocument(row) : undefined;
  }

  async insertSignedContract(document: NewDocument): Promise<{ document: FinancingDocument; created: boolean }> {
    try {
      const row = await this.db.transaction(async (trx) => {
        const [inserted] = (await trx('documents').insert(toRow(document)).returning('*')) as DocumentRow[];
        await trx('pending_objects').where({ object_key: document.objectKey }).delete();
        return inserted;
      });
      return { document: toDocument(row), created: true };
    } catch (error) {
      if (!isUniqueViolation(error, ONE_SIGNED_CONTRACT) && !isUniqueViolation(error, ONE_PROVIDER_SIGNED_CONTRACT)) throw error;
      const existing = document.simulated
        ? await this.findSimulatedSignedContract(document.financingCaseId)
        : await this.findProviderSignedContract(document.financingCaseId);
      if (!existing) throw error;
      return { document: existing, created: false };
    }
  }

  reject(financingCaseId: string, documentId: number, reason: string | null, now: string): Promise<RejectResult> {
    return this.db.transaction(async (trx): Promise<RejectResult> => {
      const row: DocumentRow | undefined = await trx('documents').where({ id: documentId, financing_case_id: financingCaseId }).forUpdate().first();
      if (!row) return { outcome: 'not_found' };
      if (row.review_status !== 'PENDING_REVIEW') return { outcome: 'not_rejectable', reviewStatus: row.review_status };
      const [updated] = (await trx('documents')
        .where({ id: documentId })
        .update({ review_status: 'REJECTED', rejection_reason: reason })
        .returning('*')) as DocumentRow[];
      let reopenedItemId: number | null = null;
      if (row.requested_item_id !== null) {
        const reopened = await trx('requested_items')
          .where({ id: row.requested_item_id })
          .whereIn('status', ['provided', 'rejected'])
          .update({ status: 'pending', provided_at: null, updated_at: now });
        if (reopened > 0) reopenedItemId = row.requested_item_id;
      }
      return { outcome: 'rejected', document: toDocument(updated), reopenedItemId };
    });
  }
}
