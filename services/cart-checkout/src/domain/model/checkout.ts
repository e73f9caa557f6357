import { z } from 'zod';

export interface CheckoutOutcome {
  financingCaseId: string;
  quoteId: string;
  submitFinancing: boolean;
}

export type IdempotencyStart = { outcome: 'started' } | { outcome: 'replay'; checkout: CheckoutOutcome } | { outcome: 'mismatch' } | { outcome: 'running' };

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
