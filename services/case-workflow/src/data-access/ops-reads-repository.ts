import type { Knex } from '@rental/db';
import type { ContractPlace } from '../domain/contract-machine';
import type { OpsQueueFilters } from '@rental/proto';
import type { LenderSubmissionView, OpsQueueEntry } from '../domain/operator';
import type { OpsReads } from '../domain/ports';
import type { QuoteStatus } from '../domain/quote-machine';

interface QueueRow {
  id: string;
  case_number: string;
  quote_number: string;
  partner_id: string;
  status: string;
  contract_status: string | null;
  lender_submission_status: string | null;
  financing_number: string | null;
  in_review_since: Date | null;
  status_updated_at: Date;
  customer_company: string | null;
}

interface SubmissionRow {
  id: number;
  lender_id: string | null;
  status: string;
  attempts: number;
  last_error: string | null;
  reference: string | null;
  created_at: Date;
  submitted_at: Date | null;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The back office's reads across partners: the queue, lender submissions, a contract's case. */
export class OpsReadsRepository implements OpsReads {
  constructor(private readonly db: Knex) {}

  async listQueue(filters: OpsQueueFilters): Promise<OpsQueueEntry[]> {
    const query = this.db('financing_cases as fc')
      .join('quotes as q', 'q.financing_case_id', 'fc.id')
      .leftJoin('contracts as c', 'c.quote_id', 'q.id')
      .select(
        'fc.id', 'fc.case_number', 'q.quote_number', 'fc.partner_id', 'q.status', 'c.status as contract_status',
        'q.lender_submission_status', 'q.financing_number', 'q.in_review_since', 'q.status_updated_at',
        this.db.raw("q.customer->>'company' as customer_company"),
      );
    if (filters.statuses.length > 0) query.whereIn('q.status', filters.statuses);
    if (filters.partnerId) query.where('fc.partner_id', filters.partnerId);
    if (filters.lenderSubmissionStatus) query.where('q.lender_submission_status', filters.lenderSubmissionStatus);
    if (filters.onlyCases) query.whereIn('fc.id', filters.onlyCases);
    if (filters.query) {
      const pattern = `%${escapeLike(filters.query)}%`;
      query.where((where) => where
        .whereILike('fc.case_number', pattern)
        .orWhereILike('q.quote_number', pattern)
        .orWhereILike('q.financing_number', pattern)
        .orWhereRaw("q.customer->>'company' ILIKE ?", [pattern]));
    }
    const rows: QueueRow[] = await query.orderBy([{ column: 'q.status_updated_at', order: 'asc' }, { column: 'fc.id', order: 'asc' }]).limit(filters.limit).offset(filters.offset);
    return rows.map((row) => ({
      id: row.id,
      caseNumber: row.case_number,
      quoteNumber: row.quote_number,
      partnerId: row.partner_id,
      status: row.status as QuoteStatus,
      contractStatus: row.contract_status as ContractPlace | null,
      lenderSubmissionStatus: row.lender_submission_status,
      financingNumber: row.financing_number,
      inReviewSince: row.in_review_since ? row.in_review_since.toISOString() : null,
      statusUpdatedAt: row.status_updated_at.toISOString(),
      customerCompany: row.customer_company,
    }));
  }

  async listLenderSubmissions(financingCaseId: string): Promise<LenderSubmissionView[]> {
    const rows: SubmissionRow[] = await this.db('lender_submissions').where({ financing_case_id: financingCaseId }).orderBy('id');
    return rows.map((row) => ({
      id: row.id,
      lenderId: row.lender_id,
      status: row.status,
      attempts: row.attempts,
      lastError: row.last_error,
      reference: row.reference,
      createdAt: row.created_at.toISOString(),
      submittedAt: row.submitted_at ? row.submitted_at.toISOString() : null,
    }));
  }

  async caseOfContract(contractId: string): Promise<string | undefined> {
    const row: { financing_case_id: string } | undefined = await this.db('contracts').where({ id: contractId }).first('financing_case_id');
    return row?.financing_case_id;
  }
}
