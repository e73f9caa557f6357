import { traceHeaders } from '@rental/logger';
import type { CreditBureau, CreditCheck } from '../domain/lender/ports';
import type { Customer } from '../domain/shared/model';

const CREDIT_CHECK_TIMEOUT_MS = 10_000;
const OUTCOMES = ['pass', 'review', 'fail'];

/**
 * The credit bureau's check of a company customer: `POST {url}/checks` with the customer, an
 * answer `{reference, outcome, score, checkedAt}`. Locally the stack's simulator answers.
 */
export class CreditBureauClient implements CreditBureau {
  constructor(private readonly url: string) {}

  async check(customer: Customer, context: { financingCaseId: string }): Promise<CreditCheck> {
    const response = await fetch(`${this.url}/checks`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...traceHeaders() },
      body: JSON.stringify({ subject: context.financingCaseId, customer }),
      signal: AbortSignal.timeout(CREDIT_CHECK_TIMEOUT_MS),
    }).catch((error: Error) => {
      throw new Error(`the credit bureau could not be reached: ${error.message}`);
    });
    if (!response.ok) throw new Error(`the credit bureau answered ${response.status}`);
    const body = (await response.json().catch(() => null)) as Partial<CreditCheck> | null;
    if (!body || typeof body.reference !== 'string' || !OUTCOMES.includes(body.outcome as string))
      throw new Error('the credit bureau gave an answer that cannot be read');
    return {
      provider: typeof body.provider === 'string' ? body.provider : 'credit-bureau',
      reference: body.reference,
      outcome: body.outcome as CreditCheck['outcome'],
      score: typeof body.score === 'number' ? body.score : null,
      checkedAt: typeof body.checkedAt === 'string' ? body.checkedAt : new Date().toISOString(),
    };
  }
}
