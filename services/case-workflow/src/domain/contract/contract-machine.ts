import { ruleViolation } from '@rental/problem';

/** Contract places; forward along the chain only, canceled from wait_for_signing. */
export const CONTRACT_PLACES = [
  'wait_for_signing',
  'signed',
  'post_processing_required',
  'delivery_approved',
  'invoice_checked',
  'completed',
  'canceled',
] as const;
export type ContractPlace = (typeof CONTRACT_PLACES)[number];

/** toStatus of the contract event when a sandbox reset removes the contract (it is no place: the contract is gone). */
export const CONTRACT_REMOVED = 'removed';

export type ContractMove = 'sign' | 'require_post_processing' | 'approve_delivery' | 'check_invoice' | 'complete' | 'cancel';

export interface ContractTransition {
  from: ContractPlace;
  move: ContractMove;
  to: ContractPlace;
}

/** The forward chain, one move per step, then the one way out of it. */
const CONTRACT_TRANSITIONS: readonly ContractTransition[] = [
  { from: 'wait_for_signing', move: 'sign', to: 'signed' },
  { from: 'signed', move: 'require_post_processing', to: 'post_processing_required' },
  { from: 'post_processing_required', move: 'approve_delivery', to: 'delivery_approved' },
  { from: 'delivery_approved', move: 'check_invoice', to: 'invoice_checked' },
  { from: 'invoice_checked', move: 'complete', to: 'completed' },
  { from: 'wait_for_signing', move: 'cancel', to: 'canceled' },
];

export function isContractPlace(value: string): value is ContractPlace {
  return (CONTRACT_PLACES as readonly string[]).includes(value);
}

export function nextContractPlace(from: ContractPlace, move: ContractMove): ContractPlace {
  const transition = CONTRACT_TRANSITIONS.find((candidate) => candidate.from === from && candidate.move === move);
  if (!transition) {
    const message = `The contract is ${from}; the move ${move} is not allowed from there.`;
    throw ruleViolation('contract.transition_not_allowed', message, [{ propertyPath: '', code: 'contract.transition_not_allowed', message }]);
  }
  return transition.to;
}

/** The forward moves from one place to a later one ([] when already there), or undefined when it lies behind or off the chain. */
export function contractPath(from: ContractPlace, to: ContractPlace): ContractMove[] | undefined {
  const moves: ContractMove[] = [];
  let at = from;
  while (at !== to) {
    const step = CONTRACT_TRANSITIONS.find((candidate) => candidate.from === at && candidate.move !== 'cancel');
    if (!step) return undefined;
    moves.push(step.move);
    at = step.to;
  }
  return moves;
}

/** Signature envelope: sent, then signed or declined. */
export const ENVELOPE_STATES = ['sent', 'signed', 'declined'] as const;
export type EnvelopeStatus = (typeof ENVELOPE_STATES)[number];

const ENVELOPE_MOVES: Readonly<Record<EnvelopeStatus, readonly EnvelopeStatus[]>> = {
  sent: ['signed', 'declined'],
  signed: [],
  declined: [],
};

/**
 * What happens to an envelope asked to be in `target`: nothing when it already is (the scenario
 * is idempotent), a change when the move exists, a 422 otherwise. No envelope yet: it is sent
 * first, so `signed` and `declined` also reach their state from nothing.
 */
export function envelopeSteps(current: EnvelopeStatus | null, target: EnvelopeStatus): EnvelopeStatus[] {
  if (current === target) return [];
  if (current === null) return target === 'sent' ? ['sent'] : ['sent', target];
  if (ENVELOPE_MOVES[current].includes(target)) return [target];
  const message = `The signature envelope is ${current}; it cannot become ${target}.`;
  throw ruleViolation('signature_envelope.transition_not_allowed', message, [
    { propertyPath: 'scenario', code: 'signature_envelope.transition_not_allowed', message },
  ]);
}
