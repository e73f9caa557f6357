import { z } from 'zod';
import {
  boundedText,
  choiceViolation,
  DomainError,
  notFound,
  ProblemCode,
  ProblemDocument,
  requiredViolation,
  ruleViolation,
  validationFailed,
  Violation,
} from '@rental/problem';
import { FILL_AND_RETURN_CATEGORIES, FINANCING_STAGE_CATEGORIES } from '@rental/proto';
import { caseNotFound, changeableCase, requireApiUser } from '../shared/access';
import { applyPartnerCancel } from '../case/cancel';
import { CONTRACT_PLACES, ContractPlace, EnvelopeStatus, contractPath, envelopeSteps, isContractPlace } from '../contract/contract-machine';
import { moveContractTo } from '../contract/contracts';
import { Contract, FinancingCase, partnerActor } from '../shared/model';
import type { CallContext, DocumentsPort } from '../shared/ports';
import type { CaseLocks, CaseReads, CaseTransaction, CaseRecord } from '../case/ports';
import { QuoteStatus, UNDER_FINANCE_REVIEW, quotePath } from '../quote/quote-machine';
import { parseOrFail } from '../shared/validation';
import type { ContractWork } from '../contract/ports';
import type { QuoteWork } from '../quote/ports';
import type { SigningWork } from '../signing/ports';

const RESET_TARGETS = [
  'accepted_by_customer',
  'finance_review',
  'manual_finance_review',
  'finance_accepted',
  'finance_rejected',
  'wait_for_signing',
  'signed',
  'post_processing_required',
  'delivery_approved',
  'invoice_checked',
] as const;
type ResetTarget = (typeof RESET_TARGETS)[number];

export const financeDecisionBody = z
  .object({
    decision: z.enum(['accepted', 'rejected']).describe('accepted drives the quote to finance_accepted, rejected to finance_rejected'),
  })
  .meta({ id: 'SandboxFinanceDecision' });

export interface SandboxDependencies {
  store: CaseReads & CaseLocks;
  documents: DocumentsPort;
  /** API_ENVIRONMENT is sandbox. */
  sandbox: boolean;
}

export interface SandboxCaller {
  id: string;
  roles: readonly string[];
  requestId?: string;
}

export type SimulationResult = { kind: 'applied' } | { kind: 'upload_rejected'; problem: ProblemDocument };

const APPLIED: SimulationResult = { kind: 'applied' };

const rule = (code: ProblemCode, message: string, propertyPath = '') => ruleViolation(code, message, [{ propertyPath, code, message }]);

function unreachable(resource: 'quote' | 'contract', current: string, desired: string) {
  return rule('sandbox.transition_unreachable', `The ${resource} is ${current}; ${desired} cannot be reached from there.`, 'scenario');
}

/** Outside the sandbox, an unknown role, an unknown or foreign case: refused before anything is read or applied. */
export async function sandboxCase(deps: SandboxDependencies, id: string, caller: SandboxCaller): Promise<FinancingCase> {
  if (!deps.sandbox) throw notFound('sandbox.not_available', 'The sandbox endpoints exist only in the sandbox environment.');
  requireApiUser(caller.roles);
  return changeableCase(deps.store, id, caller.id);
}

async function inOwnCase<T>(deps: SandboxDependencies, financingCase: FinancingCase, work: (transaction: CaseTransaction) => Promise<T>): Promise<T> {
  const outcome = await deps.store.inCase(financingCase.id, work, { actor: partnerActor(financingCase.partnerId) });
  if (!outcome) throw caseNotFound(financingCase.id);
  return outcome.result;
}

export type FinanceDecisionInput = z.infer<typeof financeDecisionBody>;

/** POST /api/sandbox/financing_cases/{id}/finance-decision, once sandboxCase let the caller in. */
export async function financeDecision(deps: SandboxDependencies, financingCase: FinancingCase, { decision }: FinanceDecisionInput): Promise<void> {
  await inOwnCase(deps, financingCase, async (transaction) => {
    const current = transaction.financingCase.status;
    if (!UNDER_FINANCE_REVIEW.includes(current)) {
      throw rule('sandbox.not_decidable', `The quote is ${current}; a finance decision needs it in ${UNDER_FINANCE_REVIEW.join(', ')}.`);
    }
    if (decision === 'accepted') {
      await transaction.moveQuote('finance_accept');
      await transaction.activateFinancingResponse('accepted');
    } else {
      await transaction.moveQuote('finance_reject');
      await transaction.deactivateFinancingResponses();
    }
  });
}

/** Drives the quote to `target` along the shortest path of the table, one event per move. */
async function driveQuote(transaction: CaseRecord & QuoteWork, target: QuoteStatus): Promise<void> {
  const current = transaction.financingCase.status;
  const moves = quotePath(current, target);
  if (!moves) throw unreachable('quote', current, target);
  for (const move of moves) await transaction.moveQuote(move);
}

/** A contract exists only for an accepted quote, in the sandbox as with start-esignature. */
async function contractOfAcceptedQuote(transaction: CaseRecord & ContractWork): Promise<Contract> {
  if (transaction.contract) return transaction.contract;
  const current = transaction.financingCase.status;
  if (current !== 'finance_accepted') {
    throw rule('sandbox.quote_not_accepted', `The quote is ${current}; a contract exists only once the quote is finance_accepted.`, 'scenario');
  }
  return transaction.createContract();
}

/** Drives the contract forward to `target`, creating it at wait_for_signing when missing; answers its id. */
async function driveContract(transaction: CaseRecord & QuoteWork & ContractWork, target: ContractPlace): Promise<string> {
  if (target === 'completed' && !transaction.contract?.contractNumber) {
    throw rule(
      'contract.number_missing',
      'A contract can be completed only once it has a contract number (PATCH /api/contracts/{id}/edit-contract-number).',
      'scenario',
    );
  }
  const contract = await contractOfAcceptedQuote(transaction);
  const moves = contractPath(contract.status, target);
  if (!moves) throw unreachable('contract', contract.status, target);
  await moveContractTo(transaction, moves, target);
  return contract.id;
}

async function driveEnvelope(transaction: CaseRecord & ContractWork & SigningWork, target: EnvelopeStatus, reason: string | null): Promise<void> {
  const contract = await contractOfAcceptedQuote(transaction);
  if (contract.status !== 'wait_for_signing') {
    throw rule('signature_envelope.contract_not_waiting', `The contract is ${contract.status}; a signature envelope needs it at wait_for_signing.`, 'scenario');
  }
  const { customer } = transaction.quote;
  for (const step of envelopeSteps(transaction.envelope?.status ?? null, target)) {
    if (step === 'sent') {
      const name = [customer.firstName, customer.lastName].filter(Boolean).join(' ') || customer.company || 'Customer';
      await transaction.sendEnvelope([{ name, email: customer.email, role: 'customer' }]);
    } else {
      await transaction.setEnvelopeStatus(step, step === 'declined' ? reason : null);
    }
  }
}

const optionalText = (max: number) => z.string().max(max, `This value is too long; at most ${max} characters.`).nullable().optional();
const documentId = z.number().int().min(1).max(2_147_483_647);

type NewItem = { label: string; category: string; question: string; optional: boolean };

function informationItems(data: Record<string, unknown>): NewItem[] {
  const input = parseOrFail(
    z.object({
      question: boundedText(10_000).optional(),
      items: z
        .array(z.object({ question: boundedText(10_000), optional: z.boolean().optional() }))
        .min(1)
        .max(50)
        .optional(),
      optional: z.boolean().optional(),
    }),
    data,
    'data',
  );
  if (input.items) return input.items.map((item) => ({ label: '', category: '', question: item.question, optional: item.optional ?? input.optional ?? false }));
  if (input.question === undefined) throw validationFailed([requiredViolation('data.question')]);
  return [{ label: '', category: '', question: input.question, optional: input.optional ?? false }];
}

function documentItems(data: Record<string, unknown>, allowed: readonly string[]): NewItem[] {
  const item = z.object({ label: boundedText(255).optional(), category: z.string().optional(), optional: z.boolean().optional() });
  const input = parseOrFail(item.extend({ items: z.array(item).min(1).max(50).optional() }), data, 'data');
  const entries = input.items ? input.items.map((entry, index) => ({ entry, at: `data.items[${index}]` })) : [{ entry: input, at: 'data' }];
  const violations = entries.flatMap(({ entry, at }): Violation[] => [
    ...(entry.label === undefined ? [requiredViolation(`${at}.label`)] : []),
    ...(entry.category === undefined
      ? [requiredViolation(`${at}.category`)]
      : allowed.includes(entry.category)
        ? []
        : [choiceViolation(`${at}.category`, allowed)]),
  ]);
  if (violations.length > 0) throw validationFailed(violations);
  return entries.map(({ entry }) => ({
    label: entry.label as string,
    category: entry.category as string,
    question: '',
    optional: entry.optional ?? input.optional ?? false,
  }));
}

function resetTarget(data: Record<string, unknown>): ResetTarget {
  const input = data.targetStatus;
  if (input === undefined || input === null) throw validationFailed([requiredViolation('data.targetStatus')]);
  if (typeof input !== 'string' || !(RESET_TARGETS as readonly string[]).includes(input))
    throw validationFailed([choiceViolation('data.targetStatus', RESET_TARGETS)]);
  return input as ResetTarget;
}

const SIGNED_OR_LATER = new Set<string>(CONTRACT_PLACES.slice(1, 6));

async function resetCase(deps: SandboxDependencies, financingCase: FinancingCase, target: ResetTarget, context: CallContext): Promise<void> {
  // Documents first: when it is down nothing is applied here and the same reset can be retried.
  await deps.documents.resetCase(financingCase.id, context);
  const contractId = await inOwnCase(deps, financingCase, async (transaction): Promise<string | null> => {
    if (!isContractPlace(target)) {
      if (transaction.contract) await transaction.deleteContract();
      await transaction.resetQuote(target);
      if (target !== 'finance_rejected') await transaction.setRejectionReason(null);
      if (target === 'finance_review') await transaction.activateFinancingResponse('review');
      else if (target === 'finance_accepted') await transaction.activateFinancingResponse('accepted');
      else await transaction.deactivateFinancingResponses();
      return null;
    }
    await transaction.resetQuote('finance_accepted');
    await transaction.setRejectionReason(null);
    await transaction.activateFinancingResponse('accepted');
    if (target === 'wait_for_signing') await transaction.deleteEnvelope();
    await transaction.resetContract(target);
    return transaction.contract?.id ?? null;
  });
  if (contractId && SIGNED_OR_LATER.has(target)) await attachSignedContract(deps, financingCase, contractId, context);
}

/**
 * The signed contract PDF is stored after the case has moved (the move makes the contract it
 * belongs to). When documents cannot store it, the move stays and the partner is told so, and
 * sending the same scenario again attaches the PDF once.
 */
async function attachSignedContract(deps: SandboxDependencies, financingCase: FinancingCase, contractId: string, context: CallContext): Promise<void> {
  try {
    await deps.documents.attachSignedContract(financingCase.id, contractId, context);
  } catch (error) {
    if (!(error instanceof DomainError) || error.kind !== 'unavailable') throw error;
    throw new DomainError(
      'unavailable',
      error.code,
      'The case has moved, but its signed contract PDF could not be stored right now. Send the same scenario again later to attach it.',
      { cause: error },
    );
  }
}

/** What a scenario works on: the partner's own case in the sandbox, and the call's context for documents. */
interface ScenarioRun {
  deps: SandboxDependencies;
  financingCase: FinancingCase;
  context: CallContext;
}

/**
 * One row of the scenario table: the schema of its `data` (or a reader for checks a schema
 * cannot say; violations name `data.…`), then its effect on the case. No schema: `data` is ignored.
 */
interface Scenario<Data> {
  data?: z.ZodType<Data> | ((data: Record<string, unknown>) => Data);
  effect: (run: ScenarioRun, data: NoInfer<Data>) => Promise<SimulationResult | void>;
}

type BoundScenario = (run: ScenarioRun, data: Record<string, unknown>) => Promise<SimulationResult | void>;

/** Binds a row's data to its effect, so the table can hold rows of different data shapes. */
function scenario<Data>(row: Scenario<Data>): BoundScenario {
  const read = (data: Record<string, unknown>): Data => {
    if (!row.data) return undefined as Data;
    return typeof row.data === 'function' ? row.data(data) : parseOrFail(row.data, data, 'data');
  };
  return (run, data) => row.effect(run, read(data));
}

const quoteScenario = (target: QuoteStatus) =>
  scenario({
    data: z.object({ rejectionReason: optionalText(1000) }),
    effect: ({ deps, financingCase }, { rejectionReason }) =>
      inOwnCase(deps, financingCase, async (transaction) => {
        // As finance-decision accepted: a rejected quote is not decidable (finance_resume is the approval team's override).
        const current = transaction.financingCase.status;
        if (target === 'finance_accepted' && current === 'finance_rejected') throw unreachable('quote', current, target);
        await driveQuote(transaction, target);
        if (target === 'finance_review') await transaction.activateFinancingResponse('review');
        if (target === 'finance_accepted') await transaction.activateFinancingResponse('accepted');
        if (target === 'finance_rejected') {
          await transaction.deactivateFinancingResponses();
          if (rejectionReason) await transaction.setRejectionReason(rejectionReason);
        }
      }),
  });

const requestItemsScenario = (kind: 'information' | 'document' | 'fill_and_return', items: (data: Record<string, unknown>) => NewItem[]) =>
  scenario({
    data: items,
    effect: async ({ deps, financingCase, context }, newItems) => {
      await deps.documents.createRequestItems(financingCase.id, kind, newItems, context);
    },
  });

const uploadRejectionScenario = (reason: 'type' | 'size') =>
  scenario({
    data: z.object({ documentId }),
    effect: async ({ deps, financingCase, context }, input) => ({
      kind: 'upload_rejected',
      problem: await deps.documents.describeUploadRejection(financingCase.id, input.documentId, reason, context),
    }),
  });

const contractScenario = (target: ContractPlace) =>
  scenario({
    effect: async ({ deps, financingCase, context }) => {
      const contractId = await inOwnCase(deps, financingCase, (transaction) => driveContract(transaction, target));
      if (SIGNED_OR_LATER.has(target)) await attachSignedContract(deps, financingCase, contractId, context);
    },
  });

const envelopeScenario = (target: EnvelopeStatus) =>
  scenario({
    data: z.object({ reason: optionalText(1000) }),
    effect: ({ deps, financingCase }, { reason }) => inOwnCase(deps, financingCase, (transaction) => driveEnvelope(transaction, target, reason ?? null)),
  });

/**
 * The sandbox scenarios, in the order the API description lists them: scenario → data → effect.
 * A status scenario drives the case the way a real case would get there (each status change one
 * event); a document scenario asks the documents service for the requested items and outcomes.
 */
const SCENARIOS = {
  finance_review: quoteScenario('finance_review'),
  manual_finance_review: quoteScenario('manual_finance_review'),
  finance_accepted: quoteScenario('finance_accepted'),
  finance_rejected: quoteScenario('finance_rejected'),
  canceled: scenario({
    effect: ({ deps, financingCase }) => inOwnCase(deps, financingCase, applyPartnerCancel),
  }),
  information_requested: requestItemsScenario('information', informationItems),
  requested_document: requestItemsScenario('document', (data) => documentItems(data, FINANCING_STAGE_CATEGORIES)),
  requested_fill_and_return: requestItemsScenario('fill_and_return', (data) => documentItems(data, FILL_AND_RETURN_CATEGORIES)),
  change_requested: scenario({
    data: z.object({ message: boundedText(10_000) }),
    effect: ({ deps, financingCase }, { message }) =>
      inOwnCase(deps, financingCase, async (transaction) => {
        const current = transaction.financingCase.status;
        if (current !== 'in_review') throw rule('sandbox.transition_unreachable', `The quote is ${current}; change_requested needs it in_review.`, 'scenario');
        await transaction.moveQuote('request_changes');
        await transaction.addQuoteFeedback('request_changes', message);
      }),
  }),
  document_rejected: scenario({
    data: z.object({ documentId, reason: optionalText(1000) }),
    effect: async ({ deps, financingCase, context }, input) => {
      await deps.documents.rejectDocument(financingCase.id, input.documentId, input.reason ?? '', context);
    },
  }),
  upload_rejected_type: uploadRejectionScenario('type'),
  upload_rejected_size: uploadRejectionScenario('size'),
  wait_for_signing: contractScenario('wait_for_signing'),
  signed: contractScenario('signed'),
  post_processing_required: contractScenario('post_processing_required'),
  delivery_approved: contractScenario('delivery_approved'),
  invoice_checked: contractScenario('invoice_checked'),
  completed: contractScenario('completed'),
  signature_sent: envelopeScenario('sent'),
  signature_signed: envelopeScenario('signed'),
  signature_declined: envelopeScenario('declined'),
  reset: scenario({
    data: resetTarget,
    effect: ({ deps, financingCase, context }, target) => resetCase(deps, financingCase, target, context),
  }),
} satisfies Record<string, BoundScenario>;

type SandboxScenario = keyof typeof SCENARIOS;
const SANDBOX_SCENARIOS = Object.keys(SCENARIOS) as [SandboxScenario, ...SandboxScenario[]];

export const simulateBody = z
  .object({
    scenario: z.enum(SANDBOX_SCENARIOS),
    data: z.record(z.string(), z.unknown()).nullable().optional().describe('Fields the scenario needs; see the scenario table'),
  })
  .meta({ id: 'SandboxSimulation' });

export type SimulationInput = z.infer<typeof simulateBody>;

/** POST /api/sandbox/financing_cases/{id}/simulate, once sandboxCase let the caller in: applies one row of the scenario table. */
export async function simulate(
  deps: SandboxDependencies,
  financingCase: FinancingCase,
  { scenario: name, data }: SimulationInput,
  caller: SandboxCaller,
): Promise<SimulationResult> {
  const context: CallContext = { partnerId: caller.id, requestId: caller.requestId };
  return (await SCENARIOS[name]({ deps, financingCase, context }, data ?? {})) ?? APPLIED;
}
