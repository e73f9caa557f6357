import { ulid, ulidToUUID } from '@rental/ids';
import { enqueueOutbox } from '@rental/bus';
import type { Knex } from '@rental/db';
import { statusChangeSubject } from '@rental/proto';
import type { CreatedCase, QuoteRequestCaseRequest, QuoteRequestStore } from '../domain/ports';
import { QuoteRequestMove, quoteRequestStatusChanged } from '../domain/quote-request';
import { CaseStatusChange, QUOTE_REQUEST_STATUS_NEW, QUOTE_REQUEST_TRANSITIONS, QuoteRequest, QuoteRequestStatus } from '../domain/model/quote-request';

export interface QuoteRequestEventSettings {
  environment: string;
  /** Full subject of status changes on the bus; each goes to its transition's subject below it. */
  subject: string;
  now(): Date;
}

interface QuoteRequestRow {
  id: number;
  partner_id: string;
  status: QuoteRequestStatus;
  calculation_id: string;
  financing_case_id: string | null;
  quote_id: string | null;
  fields: QuoteRequest['fields'];
  created_at: Date;
}

const toQuoteRequest = (row: QuoteRequestRow): QuoteRequest => ({
  id: row.id,
  partnerId: row.partner_id,
  status: row.status,
  calculationId: row.calculation_id,
  financingCaseId: row.financing_case_id,
  quoteId: row.quote_id,
  fields: row.fields,
  createdAt: row.created_at.toISOString(),
});

export class QuoteRequestRepository implements QuoteRequestStore {
  constructor(
    private readonly db: Knex,
    private readonly events: QuoteRequestEventSettings,
  ) {}

  async fileNew(partnerId: string, calculationId: string, fields: QuoteRequest['fields'], caseRequest: QuoteRequestCaseRequest): Promise<QuoteRequest> {
    const [row] = (await this.db('quote_requests')
      .insert({
        partner_id: partnerId,
        status: QUOTE_REQUEST_STATUS_NEW,
        calculation_id: calculationId,
        fields: JSON.stringify(fields),
        case_request: JSON.stringify(caseRequest),
        created_at: this.events.now(),
      })
      .returning('*')) as QuoteRequestRow[];
    return toQuoteRequest(row as QuoteRequestRow);
  }

  linkCase(id: number, created: CreatedCase): Promise<QuoteRequest> {
    return this.db.transaction(async (trx) => {
      const { from, to } = QUOTE_REQUEST_TRANSITIONS.create_quote;
      const [linked] = (await trx('quote_requests')
        .where({ id, status: from })
        .update({ financing_case_id: created.financingCaseId, quote_id: created.quoteId, status: to })
        .returning('*')) as QuoteRequestRow[];
      // Linked already (the completion job and a late answer both got here): as it is, without a second event.
      if (!linked) return toQuoteRequest((await trx('quote_requests').where({ id }).first()) as QuoteRequestRow);
      await this.emit(trx, this.events.now(), {
        partnerId: linked.partner_id,
        financingCaseId: created.financingCaseId,
        quoteId: created.quoteId,
        transition: 'create_quote',
        caseStatus: created.status,
      });
      return toQuoteRequest(linked);
    });
  }

  async discardNew(id: number): Promise<void> {
    await this.db('quote_requests').where({ id, status: QUOTE_REQUEST_STATUS_NEW }).delete();
  }

  async listInterrupted(filedBefore: Date, limit: number): Promise<{ quoteRequest: QuoteRequest; caseRequest: QuoteRequestCaseRequest }[]> {
    const rows: (QuoteRequestRow & { case_request: QuoteRequestCaseRequest })[] = await this.db('quote_requests')
      .where({ status: QUOTE_REQUEST_STATUS_NEW })
      .where('created_at', '<', filedBefore)
      .whereNotNull('case_request')
      .orderBy('created_at')
      .limit(limit);
    return rows.map((row) => ({ quoteRequest: toQuoteRequest(row), caseRequest: row.case_request }));
  }

  async cancelOfCase(change: CaseStatusChange): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const { from, to } = QUOTE_REQUEST_TRANSITIONS.cancel;
      const [row] = (await trx('quote_requests')
        .where({ partner_id: change.partnerId, financing_case_id: change.financingCaseId, status: from })
        .update({ status: to })
        .returning('*')) as QuoteRequestRow[];
      if (!row || !row.quote_id) return false;
      // After the quote's own event, so a receiver ordering by occurredAt ends on this one.
      const occurredAt = new Date(Math.max(this.events.now().getTime(), Date.parse(change.occurredAt) + 1));
      await this.emit(trx, occurredAt, {
        partnerId: change.partnerId,
        financingCaseId: change.financingCaseId,
        quoteId: row.quote_id,
        transition: 'cancel',
        caseStatus: change.status,
      });
      return true;
    });
  }

  private async emit(trx: Knex.Transaction, occurredAt: Date, move: Omit<QuoteRequestMove, 'id' | 'occurredAt' | 'environment'>): Promise<void> {
    const id = ulid(occurredAt.getTime());
    const event = quoteRequestStatusChanged({ ...move, id, occurredAt, environment: this.events.environment });
    // The outbox keys messages by UUID; a ULID is 128 bits too, so the event id maps onto one.
    await enqueueOutbox(trx, { messageId: ulidToUUID(id), subject: statusChangeSubject(this.events.subject, event.data), payload: event });
  }

  async find(partnerId: string, id: number): Promise<QuoteRequest | undefined> {
    const row: QuoteRequestRow | undefined = await this.db('quote_requests').where({ id, partner_id: partnerId }).first();
    return row ? toQuoteRequest(row) : undefined;
  }

  async list(partnerId: string, limit: number, offset: number): Promise<QuoteRequest[]> {
    const rows: QuoteRequestRow[] = await this.db('quote_requests').where({ partner_id: partnerId }).orderBy('id', 'desc').limit(limit).offset(offset);
    return rows.map(toQuoteRequest);
  }
}
