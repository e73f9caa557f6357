import { counter } from '@rental/metrics';

export const lenderSubmissions = counter({
  name: 'lender_submissions_total',
  help: 'Hand-overs of financing requests to the lender, by outcome (submitted, or failed and retried later)',
  labelNames: ['outcome'] as const,
});

export const envelopeVoids = counter({
  name: 'signing_envelope_voids_total',
  help: 'Voids of replaced or abandoned envelopes at the signing provider, by outcome (voided, or failed and retried later)',
  labelNames: ['outcome'] as const,
});
