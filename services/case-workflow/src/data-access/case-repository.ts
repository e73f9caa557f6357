import { ulid } from '@rental/ids';
import { Knex, isUniqueViolation, isoTimestampSql } from '@rental/db';
import { conflict } from '@rental/problem';
import type { AuditContext, ContractDetails, FinancingCase, HistoryEntry, QuoteDetails } from '../domain/shared/model';
import type { CaseCreationWork, CaseJson, CaseTransaction, CaseSource, CaseStore, CreatedCaseResult, NewCase } from '../domain/case/ports';
import type { CustomerLink } from '../domain/customer/ports';
import type { SigningStatement } from '../domain/signing/ports';
import { NewCaseWrites } from './new-case-writes';
import { EventSettings, KnexCaseTransaction, recordAppliedCallback } from './case-transaction';
import {
  CaseRow,
  CaseWithQuoteRow,
  ContractRow,
  EnvelopeRow,
  FeedbackRow,
  FinancingResponseRow,
  HistoryRow,
  PersonRow,
  QuoteItemRow,
  QuoteRow,
  toCase,
  toContract,
  toEnvelope,
  toFeedback,
  toFinancingResponse,
  toHistoryEntry,
  toPerson,
  toQuote,
  toQuoteItem,
} from './rows';

const SOURCE_CONSTRAINTS = ['financing_cases_partner_cart_unique', 'financing_cases_partner_quote_request_unique'];
const QUOTE_NUMBER_CONSTRAINT = 'quotes_partner_quote_number_unique';

const cents = (value: bigint | null) => (value === null ? null : value.toString());
/**
 * `<prefix>-<year>-<next value of the sequence>`, the value zero-padded to at least six digits,
 * as SQL, so the number is drawn in the statement that uses it (no round trip of its own).
 */
function numberFromSequence(trx: Knex.Transaction, prefix: string, year: number, sequence: string): Knex.Raw {
  return trx.raw(
    "(SELECT ?::text || '-' || ?::text || '-' || lpad(v, greatest(6, length(v)), '0') FROM (SELECT nextval(?::regclass)::text AS v) AS next_value)",
    [prefix, year, sequence],
  );
}

/**
 * A page of the partner's cases, each as the API prints it (presentCase in presenters.ts: the same
 * fields in the same order, and the same paths) but for its requested-item lists, which the
 * documents service fills in between `head` and `tail`.
 */
const LIST_CASES_JSON = `
SELECT fc.id,
  json_build_object('@id', '/api/financing_cases/' || fc.id, '@type', 'FinancingCase'::text, 'id', fc.id, 'caseNumber', fc.case_number,
    'type', 'financing'::text, 'status', q.status, 'rejectionReason', fc.rejection_reason, 'financingRequest', fc.financing_request,
    'partner', '/api/partners/' || fc.partner_id, 'quotes', json_build_array('/api/quotes/' || q.id))::text AS head,
  json_build_object('createdAt', ${isoTimestampSql('fc.created_at')}, 'updatedAt', ${isoTimestampSql('fc.updated_at')})::text AS tail
FROM (SELECT id, created_at FROM financing_cases WHERE partner_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?) AS page
JOIN financing_cases fc ON fc.id = page.id
JOIN quotes q ON q.financing_case_id = fc.id
ORDER BY page.created_at DESC, page.id DESC`;

export class CaseRepository implements CaseStore {
  constructor(
    private readonly db: Knex,
    private readonly settings: EventSettings,
  ) {}

  private casesWithQuote(db: Knex | Knex.Transaction = this.db) {
    return db('financing_cases as fc')
      .join('quotes as q', 'q.financing_case_id', 'fc.id')
      .select('fc.*', 'q.id as quote_id', 'q.status as quote_status', 'q.quote_number as quote_number');
  }

  async findCase(id: string): Promise<FinancingCase | undefined> {
    const row: CaseWithQuoteRow | undefined = await this.casesWithQuote().where('fc.id', id).first();
    return row ? toCase(row) : undefined;
  }

  async hasQuoteWithRentalFactor(partnerId: string, rentalFactor: string, term: { calculationType: string; duration: number }): Promise<boolean> {
    const quote = await this.db('quotes')
      .where({ partner_id: partnerId, rental_factor: rentalFactor, calculation_type: term.calculationType, duration: term.duration })
      .first('id');
    return quote !== undefined;
  }

  /**
   * The page is chosen from the index (partner_id, created_at DESC, id DESC) alone, so a deep
   * `?page=` skips index entries, not joined rows; the quote is joined for the page's cases only.
   */
  async listCases(partnerId: string, limit: number, offset: number): Promise<CaseJson[]> {
    const { rows }: { rows: CaseJson[] } = await this.db.raw(LIST_CASES_JSON, [partnerId, limit, offset]);
    return rows;
  }

  private async findCaseBySource(partnerId: string, source: CaseSource): Promise<{ financingCase: FinancingCase; quoteNumber: string } | undefined> {
    const query = this.casesWithQuote().where('fc.partner_id', partnerId);
    const row: CaseWithQuoteRow | undefined = await (
      'cartId' in source ? query.where('fc.cart_id', source.cartId) : query.where('fc.quote_request_id', source.quoteRequestId)
    ).first();
    return row ? { financingCase: toCase(row), quoteNumber: row.quote_number } : undefined;
  }

  async findQuoteWithItems(quoteId: string): Promise<Pick<QuoteDetails, 'quote' | 'items'> | undefined> {
    const [quote, items] = await Promise.all([
      this.db('quotes').where({ id: quoteId }).first() as Promise<QuoteRow | undefined>,
      this.db('quote_items').where({ quote_id: quoteId }).orderBy('position') as Promise<QuoteItemRow[]>,
    ]);
    return quote ? { quote: toQuote(quote), items: items.map(toQuoteItem) } : undefined;
  }

  async findQuoteDetails(quoteId: string): Promise<QuoteDetails | undefined> {
    const quote: QuoteRow | undefined = await this.db('quotes').where({ id: quoteId }).first();
    if (!quote) return undefined;
    const [items, feedbacks, persons, responses, contract] = await Promise.all([
      this.db('quote_items').where({ quote_id: quoteId }).orderBy('position') as Promise<QuoteItemRow[]>,
      this.db('quote_feedbacks').where({ quote_id: quoteId }).orderBy('id') as Promise<FeedbackRow[]>,
      this.db('authorized_persons').where({ quote_id: quoteId }).orderBy('id') as Promise<PersonRow[]>,
      this.db('financing_responses').where({ quote_id: quoteId }).orderBy('id') as Promise<FinancingResponseRow[]>,
      this.db('contracts').where({ quote_id: quoteId }).first('id') as Promise<{ id: string } | undefined>,
    ]);
    return {
      quote: toQuote(quote),
      items: items.map(toQuoteItem),
      feedbacks: feedbacks.map(toFeedback),
      authorizedPersons: persons.map(toPerson),
      financingResponses: responses.map(toFinancingResponse),
      contractId: contract?.id ?? null,
    };
  }

  async findContract(contractId: string): Promise<ContractDetails | undefined> {
    const contract: ContractRow | undefined = await this.db('contracts').where({ id: contractId }).first();
    if (!contract) return undefined;
    const envelope: EnvelopeRow | undefined = await this.db('signature_envelopes').where({ contract_id: contractId }).first();
    return { contract: toContract(contract), envelope: envelope ? toEnvelope(envelope) : null };
  }

  /**
   * The case, its quote and items in one statement, and what `work` does to the new case in one
   * more (NewCaseWrites). A repeat for the same source fails on the source's unique index and
   * returns the first case; a generated quote number that a partner chose for a quote of its own
   * fails on the quote number's and the creation runs again with the next number.
   */
  async createCase(newCase: NewCase, work: (creation: CaseCreationWork) => Promise<void>, audit: AuditContext): Promise<CreatedCaseResult> {
    for (;;) {
      try {
        return await this.insertCase(newCase, work, audit);
      } catch (error) {
        if (SOURCE_CONSTRAINTS.some((constraint) => isUniqueViolation(error, constraint))) {
          // Two creations from one source raced, or the source was checked out before; the first one won.
          const existing = await this.findCaseBySource(newCase.partnerId, newCase.source);
          if (existing) return { ...existing, created: false };
        }
        if (isUniqueViolation(error, QUOTE_NUMBER_CONSTRAINT)) {
          if (newCase.quoteNumber === null) continue;
          throw conflict('quote.number_taken', `The quote number ${newCase.quoteNumber} is already used by another quote of the partner.`);
        }
        throw error;
      }
    }
  }

  private insertCase(newCase: NewCase, work: (creation: CaseCreationWork) => Promise<void>, audit: AuditContext): Promise<CreatedCaseResult> {
    return this.db.transaction(async (trx) => {
      const now = this.settings.now();
      const year = now.getUTCFullYear();
      const caseId = ulid();
      const quoteId = ulid();
      const caseValues = {
        id: caseId,
        partner_id: newCase.partnerId,
        type: 'financing',
        financing_request: newCase.financingRequest,
        rejection_reason: null,
        cart_id: 'cartId' in newCase.source ? newCase.source.cartId : null,
        quote_request_id: 'quoteRequestId' in newCase.source ? newCase.source.quoteRequestId : null,
        created_at: now,
        updated_at: now,
        last_event_at: null,
        clock_offset_ms: 0,
      };
      const terms = newCase.terms;
      // Case, quote and items in one statement (one round trip): the case and the items as
      // data-modifying WITHs of the quote's insert, whose foreign keys are checked at its end.
      let statement = trx.queryBuilder().with(
        'new_case',
        trx('financing_cases')
          .insert({ ...caseValues, case_number: numberFromSequence(trx, 'FC', year, 'case_number_seq') })
          .returning('case_number'),
      );
      if (newCase.items.length > 0) {
        statement = statement.with(
          'new_items',
          trx('quote_items').insert(
            newCase.items.map((item) => ({
              quote_id: quoteId,
              position: item.position,
              product_number: item.productNumber,
              product_name: item.productName,
              product_sku: item.productSku,
              quantity: item.quantity,
              price_per_item_cents: item.pricePerItemCents.toString(),
              total_cents: item.totalCents.toString(),
              category_id: item.categoryId,
              category_slug: item.categorySlug,
              product_options: JSON.stringify(item.productOptions),
            })),
          ),
        );
      }
      const [{ new_case_number: caseNumber, ...quoteRow }] = (await statement
        .insert({
          id: quoteId,
          financing_case_id: caseId,
          partner_id: newCase.partnerId,
          quote_number: newCase.quoteNumber ?? numberFromSequence(trx, 'Q', year, 'quote_number_seq'),
          status: 'in_progress',
          status_updated_at: now,
          calculation_type: terms.calculationType,
          duration: terms.duration,
          customer: JSON.stringify(newCase.customer),
          shipping_address: JSON.stringify(newCase.shippingAddress),
          distribution_hub: terms.distributionHub,
          calculation_id: newCase.calculationId,
          cart_id: 'cartId' in newCase.source ? newCase.source.cartId : null,
          quote_request_id: 'quoteRequestId' in newCase.source ? newCase.source.quoteRequestId : null,
          rental_factor: terms.rentalFactor,
          residual_value: terms.residualValue,
          payment_interval: terms.paymentInterval,
          commission_percentage: terms.commissionPercentage,
          total_value_cents: cents(terms.totalValueCents),
          monthly_costs_cents: cents(terms.monthlyCostsCents),
          monthly_rate_all_in_cents: cents(terms.monthlyRateAllInCents),
          service_cost_cents: cents(terms.serviceCostCents),
          recurring_service_fee_cents: cents(terms.recurringServiceFeeCents),
          product_sector: terms.productSector,
          financing_partner_id: terms.financingPartnerId,
          custom_sla_file_name: terms.customSlaFileName,
          contact_phone: newCase.contactPhone,
          contact_email: newCase.contactEmail,
          print_plan_terms: newCase.printPlanTerms === null ? null : JSON.stringify(newCase.printPlanTerms),
          created_at: now,
          updated_at: now,
        })
        .into('quotes')
        .returning(['*', trx.raw('(SELECT case_number FROM new_case) AS new_case_number')])) as (QuoteRow & { new_case_number: string })[];
      const creation = new NewCaseWrites({ ...caseValues, case_number: caseNumber }, quoteRow, this.settings, audit);
      await work(creation);
      await creation.write(trx);
      return { financingCase: creation.financingCase, quoteNumber: creation.quote.quoteNumber, created: true };
    });
  }

  async inCase<T>(financingCaseId: string, work: (transaction: CaseTransaction) => Promise<T>, audit: AuditContext): Promise<{ result: T } | undefined> {
    return this.db.transaction(async (trx) => {
      // Always case, quote, contract, envelope: one lock order, so two changes of a case queue up instead of deadlocking.
      const caseRow: CaseRow | undefined = await trx('financing_cases').where({ id: financingCaseId }).forUpdate().first();
      if (!caseRow) return undefined;
      const quoteRow: QuoteRow = await trx('quotes').where({ financing_case_id: financingCaseId }).forUpdate().first();
      const contractRow: ContractRow | undefined = await trx('contracts').where({ financing_case_id: financingCaseId }).forUpdate().first();
      const envelopeRow: EnvelopeRow | undefined = contractRow
        ? await trx('signature_envelopes').where({ contract_id: contractRow.id }).forUpdate().first()
        : undefined;
      const transaction = new KnexCaseTransaction(trx, this.settings, caseRow, quoteRow, contractRow ?? null, envelopeRow ?? null, audit);
      return { result: await work(transaction) };
    });
  }

  async findProviderEnvelope(envelopeId: string): Promise<{ financingCaseId: string; contractId: string } | undefined> {
    const row: { financing_case_id: string; contract_id: string } | undefined = await this.db('provider_envelopes')
      .where({ envelope_id: envelopeId })
      .first('financing_case_id', 'contract_id');
    return row ? { financingCaseId: row.financing_case_id, contractId: row.contract_id } : undefined;
  }

  async isCallbackApplied(sender: string, webhookId: string): Promise<boolean> {
    return (await this.db('applied_callbacks').where({ sender, webhook_id: webhookId }).first('webhook_id')) !== undefined;
  }

  markCallbackApplied(sender: string, webhookId: string): Promise<boolean> {
    return recordAppliedCallback(this.db, sender, webhookId, this.settings.now());
  }

  async findSigningStatement(financingCaseId: string): Promise<SigningStatement | null> {
    const row: { signing_statement: SigningStatement | null } | undefined = await this.db('quotes')
      .where({ financing_case_id: financingCaseId })
      .first('signing_statement');
    return row?.signing_statement ?? null;
  }

  async findCustomerLink(tokenHash: string): Promise<CustomerLink | undefined> {
    const row = await this.db('customer_links as l')
      .join('financing_cases as fc', 'fc.id', 'l.financing_case_id')
      .where('l.token_hash', tokenHash)
      .first('l.*', 'fc.clock_offset_ms');
    if (!row) return undefined;
    return {
      id: Number(row.id),
      financingCaseId: row.financing_case_id,
      quoteId: row.quote_id,
      email: row.email,
      viewOnly: row.view_only,
      createdAt: (row.created_at as Date).toISOString(),
      expiresAt: (row.expires_at as Date).toISOString(),
      invalidatedAt: row.invalidated_at ? (row.invalidated_at as Date).toISOString() : null,
      clockOffsetMs: Number(row.clock_offset_ms),
    };
  }

  async listHistory(financingCaseId: string): Promise<HistoryEntry[]> {
    const rows: HistoryRow[] = await this.db('case_history').where({ financing_case_id: financingCaseId }).orderBy('id');
    return rows.map(toHistoryEntry);
  }
}
