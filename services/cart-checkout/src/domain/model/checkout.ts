import { z } from 'zod';

export interface CheckoutOutcome {
  financingCaseId: string;
  quoteId: string;
  submitFinancing: boolean;
}

export type IdempotencyStart = { outcome: 'started' } | { outcome: 'replay'; checkout: CheckoutOutcome } | { outcome: 'mismatch' } | { outcome: 'running' };

/** How a checkout began, read and written in one round trip (CheckoutLedger.start). */
export interface CheckoutStart<CartValue> {
  /** The cart as it stood, undefined when there is none. */
  cart: CartValue | undefined;
  /** started: the key was new and runs now; seen: it was used before (IdempotencyStore.begin tells how); none: no key was given. */
  key: 'started' | 'seen' | 'none';
  /** The claim of the cart, or why it failed; undefined when none was tried (no cart, another partner's, or a key seen before). */
  claim: CartValue | 'checked_out' | 'running' | undefined;
}

/** The Idempotency-Key a checkout runs under. */
export interface IdempotencyKeyRef {
  partnerId: string;
  key: string;
}

const percent = z.number().int().min(0).max(100);

export const printPlanContractTerms = z
  .object({
    pageCoverage: percent.default(5),
    colorRatio: percent.default(15),
    maintenanceTonerColor: z.boolean().default(true),
    maintenanceDrums: z.boolean().default(true),
    maintenanceStaples: z.boolean().default(true),
    maintenancePaper: z.boolean().default(true),
  })
  .strict()
  .meta({ id: 'PrintPlanContractTerms' });

export type PrintPlanContractTerms = z.output<typeof printPlanContractTerms>;
