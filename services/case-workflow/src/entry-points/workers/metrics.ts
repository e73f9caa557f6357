import { counter } from '@rental/metrics';

export const lenderSubmissions = counter({
  name: 'lender_submissions_total',
  help: 'Hand-overs of financing requests to the lender, by outcome (submitted, or failed and retried later)',
  labelNames: ['outcome'] as const,
});
