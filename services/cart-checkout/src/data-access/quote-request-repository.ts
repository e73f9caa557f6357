import type { Knex } from '@rental/db';
import type { QuoteRequest, QuoteRequestStore } from '../domain/quote-request';
import { QUOTE_REQUEST_STATUS_NEW } from '../domain/quote-request';

interface QuoteRequestRow {
  id: number;
  partner_id: string;
  status: string;
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
  constructor(private readonly db: Knex) {}

  async create(partnerId: string, calculationId: string, fields: QuoteRequest['fields'], work: (id: number) => Promise<{ financingCaseId: string; quoteId: string }>): Promise<QuoteRequest> {
    return this.db.transaction(async (trx) => {
      const [row] = await trx('quote_requests')
        .insert({ partner_id: partnerId, status: QUOTE_REQUEST_STATUS_NEW, calculation_id: calculationId, fields: JSON.stringify(fields), created_at: new Date() })
        .returning('*') as QuoteRequestRow[];
      const created = await work((row as QuoteRequestRow).id);
      const [updated] = await trx('quote_requests').where({ id: (row as QuoteRequestRow).id })
        .update({ financing_case_id: created.financingCaseId, quote_id: created.quoteId })
        .returning('*') as QuoteRequestRow[];
      return toQuoteRequest(updated as QuoteRequestRow);
    });
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
