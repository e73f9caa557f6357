import type { Knex } from '@rental/db';
import type { ContractPlace } from '../domain/contract/contract-machine';
import type { OpsQueueFilters } from '@rental/proto';
import type { LenderSubmissionView, OpsQueueEntry, OpsReads } from '../domain/operator/ports';
import type { QuoteStatus } from '../domain/quote/quote-machine';

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

/**
 * What the trigram indexes look up for a search: the longest run of digits, with one of its
 * leading zeros and the character after it when that ends the word (`04242` of `FC-S-000004242`,
 * `1234 ` of `Company 1234 GmbH`), when it has three or more digits beyond its zeros; else the
 * whole words. Case and quote numbers share most of their trigrams (`FC-`, `-20`, `000`), and an
 * index lookup reads the entries of every trigram it is given: at 1,000,000 cases a whole case
 * number read 1,600 index pages, its number part 7. Every row the lookup finds is then read and
 * checked against the whole words, so the part is kept as long as its trigrams stay rare: one zero
 * (`042`) and the word's end (`34 `) each cut the rows found at 1,000,000 cases from about 560 to
 * about 100 per field. Any text containing the words contains the part, so it finds every match.
 */
export function distinctivePart(query: string): string {
  const longest = [...query.matchAll(/\d+/g)].reduce<RegExpMatchArray | undefined>(
    (best, run) => (run[0].length > (best?.[0].length ?? 0) ? run : best),
    undefined,
  );
  if (!longest) return query;
  const run = longest[0];
  const digits = run.replace(/^0+/, '');
  if (digits.length < 3) return query;
  const after = query.charAt((longest.index ?? 0) + run.length);
  const wordEnd = /^[^\p{L}\p{N}]$/u.test(after) ? after : '';
  return (digits.length < run.length ? '0' : '') + digits + wordEnd;
}

/** Case numbers are `FC-<year>-<number>`: words with a blank cannot be part of one. */
const mayBeCaseNumber = (query: string) => !/\s/.test(query);

/** The back office's reads across partners: the queue, lender submissions, a contract's case. */
export class OpsReadsRepository implements OpsReads {
  constructor(private readonly db: Knex) {}

  /**
   * The queue's page is chosen on quotes alone, in the order of an index that holds the filter
   * column, status_updated_at and financing_case_id, so skipping to a deep page reads index
   * entries only; the shown columns are joined for the page's rows alone (issue 34).
   */
  async listQueue(filters: OpsQueueFilters): Promise<OpsQueueEntry[]> {
    const page = this.db('quotes as q').select('q.financing_case_id', 'q.status_updated_at');
    if (filters.statuses.length > 0) page.whereIn('q.status', filters.statuses);
    // A quote carries its case's partner: filtering here keeps the page within one index.
    if (filters.partnerId) page.where('q.partner_id', filters.partnerId);
    if (filters.lenderSubmissionStatus) page.where('q.lender_submission_status', filters.lenderSubmissionStatus);
    if (filters.onlyCases) page.whereIn('q.financing_case_id', filters.onlyCases);
    if (filters.query) page.whereIn('q.financing_case_id', this.casesMatching(filters.query));
    page
      .orderBy([
        { column: 'q.status_updated_at', order: 'asc' },
        { column: 'q.financing_case_id', order: 'asc' },
      ])
      .limit(filters.limit)
      .offset(filters.offset);

    const rows: QueueRow[] = await this.db
      .from(page.as('page'))
      .join('financing_cases as fc', 'fc.id', 'page.financing_case_id')
      .join('quotes as q', 'q.financing_case_id', 'page.financing_case_id')
      .leftJoin('contracts as c', 'c.quote_id', 'q.id')
      .select(
        'fc.id',
        'fc.case_number',
        'q.quote_number',
        'fc.partner_id',
        'q.status',
        'c.status as contract_status',
        'q.lender_submission_status',
        'q.financing_number',
        'q.in_review_since',
        'q.status_updated_at',
        this.db.raw("q.customer->>'company' as customer_company"),
      )
      .orderBy([
        { column: 'page.status_updated_at', order: 'asc' },
        { column: 'page.financing_case_id', order: 'asc' },
      ]);
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

  /**
   * Ids of the cases whose case, quote or financing number or customer company contains the
   * search words: one query per field, each served by its trigram index, united before the page
   * is ordered (an OR across the two tables could only be answered by reading every case). The
   * index looks up the words' distinctive part only (see `distinctivePart`); the whole words are
   * then checked on the rows found, in a form the planner does not take to the index.
   */
  private casesMatching(query: string): Knex.QueryBuilder {
    const whole = `%${escapeLike(query)}%`;
    const part = distinctivePart(query);
    const lookedUp = `%${escapeLike(part)}%`;
    const field = (builder: Knex.QueryBuilder, column: string) => {
      builder.whereRaw(`${column} ILIKE ?`, [lookedUp]);
      if (part !== query) builder.whereRaw(`(${column} || '') ILIKE ?`, [whole]);
      return builder;
    };
    const quotes = field(this.db('quotes').select('financing_case_id'), 'quote_number')
      .union((union) => field(union.from('quotes').select('financing_case_id'), 'financing_number'))
      .union((union) => field(union.from('quotes').select('financing_case_id'), "(customer->>'company')"));
    if (!mayBeCaseNumber(query)) return quotes;
    return quotes.union((union) => field(union.from('financing_cases').select('id as financing_case_id'), 'case_number'));
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
