import { ulid } from '@rental/ids';
import { z } from 'zod';
import { DomainError, type ProblemCode, Violation, boundedText, conflict, emailAddress, ruleViolation, unavailable, validationFailed } from '@rental/problem';
import { caseNotFound } from '../shared/access';
import { AuthorizedPerson, FinancingCase, Quote, partnerActor } from '../shared/model';
import type { CaseLocks, CaseReads, CaseRecord } from '../case/ports';
import type { NewAuthorizedPerson, SigningProvider, SigningStatement, SigningStatementSource, SigningWork } from './ports';
import type { ContractRenderer, ContractWork } from '../contract/ports';

/** Shared mailboxes reach a team, not a person who can sign; the invitation must go to a signer. */
export const GENERIC_MAILBOXES = [
  'info',
  'office',
  'kontakt',
  'contact',
  'mail',
  'admin',
  'support',
  'sales',
  'service',
  'team',
  'hello',
  'buchhaltung',
  'noreply',
  'no-reply',
  'post',
  'verwaltung',
] as const;

const name = boundedText(100);

export const startEsignatureBody = z
  .object({
    authorizedPersons: z
      .array(
        z
          .object({
            firstName: name,
            lastName: name,
            email: emailAddress().max(320).describe('The signing invitation goes here; shared mailboxes (info@, office@, …) are refused'),
            soloSigneePermitted: z.boolean().default(false).describe('true when this person may sign alone'),
          })
          .meta({ id: 'AuthorizedPersonInput' }),
      )
      .min(1, 'At least one person is required.')
      .max(20, 'At most 20 persons.'),
  })
  .meta({ id: 'StartEsignatureRequest' });

export type StartEsignatureInput = z.infer<typeof startEsignatureBody>;

export function isGenericMailbox(email: string): boolean {
  const local = (email.split('@')[0] ?? '').toLowerCase().split('+')[0] ?? '';
  return (GENERIC_MAILBOXES as readonly string[]).includes(local);
}

/** A name or address as people compare them: Unicode-composed, blanks trimmed and collapsed, case ignored. */
const normalized = (value: string | null | undefined) => (value ?? '').normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The lender's statement binds a person by first name, last name and e-mail together: a listed
 * name with another mailbox would send the invitation for the named person to someone else. A
 * signatory listed without an e-mail binds no mailbox, so nobody can be matched to it.
 */
function onStatement(person: NewAuthorizedPerson, statement: SigningStatement): boolean {
  return statement.signatories.some(
    (signatory) =>
      signatory.email !== null &&
      normalized(signatory.email) === normalized(person.email) &&
      normalized(signatory.firstName) === normalized(person.firstName) &&
      normalized(signatory.lastName) === normalized(person.lastName),
  );
}

function notOnStatementMessage(person: NewAuthorizedPerson, statement: SigningStatement): string {
  const sameName = statement.signatories.find(
    (signatory) => normalized(signatory.firstName) === normalized(person.firstName) && normalized(signatory.lastName) === normalized(person.lastName),
  );
  if (!sameName) return `${person.firstName} ${person.lastName} is not named on the lender's statement of who may sign for the customer.`;
  if (sameName.email === null)
    return `The lender's statement names ${person.firstName} ${person.lastName} without an e-mail address, so no invitation can be bound to them; ask the lender for a statement with their address.`;
  return `The lender's statement names ${person.firstName} ${person.lastName} with another e-mail address; the invitation must go to the address the lender gave.`;
}

/** One mailbox however it is written: case-insensitive, a +tag of the local part ignored. */
function mailboxOf(email: string): string {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at).split('+')[0] ?? '';
  return `${local}@${email.slice(at + 1)}`.trim().toLowerCase();
}

const samePerson = (a: NewAuthorizedPerson, b: NewAuthorizedPerson) =>
  mailboxOf(a.email) === mailboxOf(b.email) || (normalized(a.firstName) === normalized(b.firstName) && normalized(a.lastName) === normalized(b.lastName));

/** Index of the earlier entry each entry repeats (same mailbox or same name), for the persons that repeat one. */
function repeatedPersons(persons: NewAuthorizedPerson[]): { index: number; earlier: number }[] {
  return persons.flatMap((person, index) => {
    const earlier = persons.slice(0, index).findIndex((other) => samePerson(other, person));
    return earlier === -1 ? [] : [{ index, earlier }];
  });
}

/**
 * Rules 2 to 5 of the specification: no shared mailboxes; one person only with permission to
 * sign alone, else at least two; with a lender's statement every person must be on it (first
 * name, last name and e-mail) and the set must have at least its minimum of signers, whatever
 * soloSigneePermitted says; without one the persons are taken as given.
 */
export function signerViolations(persons: NewAuthorizedPerson[], statement: SigningStatement | null): Violation[] {
  const violations: Violation[] = [];
  persons.forEach((person, index) => {
    if (isGenericMailbox(person.email)) {
      violations.push({
        propertyPath: `authorizedPersons[${index}].email`,
        code: 'esignature.generic_mailbox',
        message: `${person.email} is a shared mailbox; the invitation must go to the person who signs.`,
      });
    }
  });
  // Two entries of one person are one signer: the two-signer rule counts persons, not entries.
  const repeated = repeatedPersons(persons);
  for (const { index, earlier } of repeated) {
    const person = persons[index] as NewAuthorizedPerson;
    violations.push({
      propertyPath: `authorizedPersons[${index}]`,
      code: 'esignature.duplicate_person',
      message: `${person.firstName} ${person.lastName} <${person.email}> is the same person as authorizedPersons[${earlier}]; each signer counts once.`,
    });
  }
  const signers = persons.length - repeated.length;
  if (signers === 1 && !persons[0]?.soloSigneePermitted) {
    violations.push({
      propertyPath: 'authorizedPersons',
      code: 'esignature.signers_insufficient',
      message: 'A single person must be permitted to sign alone (soloSigneePermitted true); otherwise at least two persons are needed.',
    });
  }
  if (statement) {
    persons.forEach((person, index) => {
      if (!onStatement(person, statement)) {
        violations.push({
          propertyPath: `authorizedPersons[${index}]`,
          code: 'esignature.not_on_signing_statement',
          message: notOnStatementMessage(person, statement),
        });
      }
    });
    // The lender's rule stands whatever the partner says about signing alone.
    if (signers < statement.minimumSigners) {
      violations.push({
        propertyPath: 'authorizedPersons',
        code: 'esignature.signing_rule_not_met',
        message: `The lender's statement requires at least ${statement.minimumSigners} persons to sign together; ${signers} ${signers === 1 ? 'was' : 'were'} given (soloSigneePermitted does not lower the lender's minimum).`,
      });
    }
  }
  return violations;
}

export interface StartedEsignature {
  financingCaseId: string;
  contractId: string;
  envelopeId: string;
  status: 'sent';
  authorizedPersons: AuthorizedPerson[];
}

/**
 * How long one attempt of an envelope request may be on its way (the contract's rendering and the
 * provider's 10 s): a request still unanswered after it was abandoned (the process died or the
 * answer was lost), and its envelope is voided at the provider unless a retry asked again first.
 */
export const ENVELOPE_REQUEST_LEASE_MS = 30_000;

/** What a start of the e-signature does to the locked case: its contract, envelope and authorized persons. */
export type EsignatureWork = CaseRecord & ContractWork & SigningWork;

export interface EsignatureDependencies {
  store: CaseReads & CaseLocks;
  signingStatements: SigningStatementSource;
  /** Production: the contract is rendered and sent to the signing provider before the partner's 200. */
  signing?: { provider: SigningProvider; renderer: ContractRenderer; now(): Date };
}

const notAccepted = (financingCase: FinancingCase) => {
  const message = `The quote is ${financingCase.status}; an e-signature can start only once it is finance_accepted.`;
  return ruleViolation('esignature.quote_not_accepted', message, [{ propertyPath: '', code: 'esignature.quote_not_accepted', message }]);
};

const rule = (code: ProblemCode, message: string) => ruleViolation(code, message, [{ propertyPath: '', code, message }]);

const envelopeReplaced = (envelopeId: string) =>
  conflict(
    'esignature.envelope_replaced',
    `The signature envelope ${envelopeId} was replaced by a start with other persons while the signing provider was asked for it; start again to sign with these persons.`,
  );

/** Rule 1 and the contract's state: why the case takes no envelope now, or null. */
function startRefusal(transaction: CaseRecord): DomainError | null {
  if (transaction.financingCase.status !== 'finance_accepted') return notAccepted(transaction.financingCase);
  const contract = transaction.contract;
  if (contract && contract.status !== 'wait_for_signing')
    return rule('esignature.contract_not_waiting', `The contract is ${contract.status}; an e-signature can start only while it waits for signing.`);
  if (transaction.envelope?.status === 'signed') return rule('esignature.already_signed', "The contract's signature envelope is already signed.");
  return null;
}

/**
 * The same persons: the same first names, last names and e-mails as the signing statement compares
 * them, in any order. soloSigneePermitted plays no part: the envelope the signers get is the same.
 */
function samePersons(a: readonly NewAuthorizedPerson[], b: readonly NewAuthorizedPerson[]): boolean {
  const keys = (persons: readonly NewAuthorizedPerson[]) =>
    persons
      .map((person) => [person.firstName, person.lastName, person.email].map(normalized).join('\u0000'))
      .sort()
      .join('\u0001');
  return a.length === b.length && keys(a) === keys(b);
}

const recipientsOf = (persons: NewAuthorizedPerson[]) =>
  persons.map((person) => ({ name: `${person.firstName} ${person.lastName}`, email: person.email, role: 'signer' as const }));
const signersOf = (persons: NewAuthorizedPerson[]) => persons.map(({ firstName, lastName, email }) => ({ firstName, lastName, email }));
const laterOf = (a: Date, b: Date | null) => (b && b > a ? b : a);

function started(transaction: CaseRecord, contractId: string, envelopeId: string, authorizedPersons: AuthorizedPerson[]): StartedEsignature {
  return { financingCaseId: transaction.financingCase.id, contractId, envelopeId, status: 'sent', authorizedPersons };
}

/** The contract's envelope when it is open (sent, neither signed nor declined) and was started for these persons. */
async function openEnvelopeFor(transaction: CaseRecord & SigningWork, persons: NewAuthorizedPerson[]): Promise<StartedEsignature | null> {
  const { envelope, contract } = transaction;
  if (envelope?.status !== 'sent' || !contract) return null;
  const current = await transaction.authorizedPersons();
  return samePersons(current, persons) ? started(transaction, contract.id, envelope.id, current) : null;
}

async function inOwnCase<T>(store: CaseLocks, financingCase: FinancingCase, work: (transaction: EsignatureWork) => Promise<T>): Promise<T> {
  const outcome = await store.inCase(financingCase.id, work, { actor: partnerActor(financingCase.partnerId) });
  if (!outcome) throw caseNotFound(financingCase.id);
  return outcome.result;
}

/**
 * POST /api/financing-cases/{id}/start-esignature: the persons become the quote's authorized
 * persons, the contract is created at wait_for_signing when missing, and a signature envelope to
 * the persons is sent, replacing one that was not signed. While the contract's envelope is open
 * and was started for the same persons, a new call (a retry) answers that envelope and changes
 * nothing.
 */
export async function startEsignature(
  deps: EsignatureDependencies,
  financingCase: FinancingCase,
  { authorizedPersons: persons }: StartEsignatureInput,
): Promise<StartedEsignature> {
  if (financingCase.status !== 'finance_accepted') throw notAccepted(financingCase);
  const violations = signerViolations(persons, await deps.signingStatements.statementFor(financingCase));
  if (violations.length > 0) throw validationFailed(violations);
  if (deps.signing) return startAtProvider(deps.store, deps.signing, financingCase, persons);
  // The sandbox: the envelope is ours alone, so it is sent in the case's transaction.
  return inOwnCase(deps.store, financingCase, async (transaction) => {
    const refusal = startRefusal(transaction);
    if (refusal) throw refusal;
    const open = await openEnvelopeFor(transaction, persons);
    if (open) return open;
    const contract = transaction.contract ?? (await transaction.createContract());
    const authorizedPersons = await transaction.replaceAuthorizedPersons(persons);
    const envelope = await transaction.sendEnvelope(recipientsOf(persons));
    return started(transaction, contract.id, envelope.id, authorizedPersons);
  });
}

/**
 * Production, in three steps so that no transaction holds the case while the provider is asked:
 * the request is reserved (or a reserved one of the same persons asked again, with the same
 * envelope id, which the provider recognises as a repeat); the provider is asked; its envelope
 * becomes the contract's. A refusal of a first request leaves nothing behind; an answer that
 * never came leaves the reservation, which a retry asks again or the void worker voids.
 */
async function startAtProvider(
  store: EsignatureDependencies['store'],
  signing: NonNullable<EsignatureDependencies['signing']>,
  financingCase: FinancingCase,
  persons: NewAuthorizedPerson[],
): Promise<StartedEsignature> {
  const items = (await store.findQuoteDetails(financingCase.quoteId))?.items ?? [];
  const plan = await inOwnCase(store, financingCase, (transaction) => planEnvelopeRequest(transaction, persons, signing.now()));
  if ('started' in plan) return plan.started;
  const { request } = plan;
  const signers = signersOf(request.persons);
  const document = await signing.renderer.render({
    caseNumber: financingCase.caseNumber,
    contractNumber: plan.contractNumber,
    quote: plan.quote,
    items,
    signers,
  });
  let answer: Awaited<ReturnType<SigningProvider['requestEnvelope']>> | undefined;
  let failure: unknown;
  try {
    answer = await signing.provider.requestEnvelope({
      envelopeId: request.envelopeId,
      financingCaseId: financingCase.id,
      contractId: request.contractId,
      contractNumber: plan.contractNumber,
      signers,
      document: { fileName: `contract-${financingCase.caseNumber}.pdf`, content: document },
    });
  } catch (error) {
    failure = error;
  }
  if (!answer?.accepted) {
    // A refusal of the only attempt: the provider holds nothing. Without an answer it may: the reservation stays.
    if (answer) await inOwnCase(store, financingCase, (transaction) => transaction.forgetProviderEnvelope(request.envelopeId));
    throw unavailable(
      'signing.provider_unavailable',
      'The signing provider did not take the envelope. Nothing was started; retry later.',
      failure ?? new Error(`the signing provider answered ${answer?.status}`),
    );
  }
  const providerEnvelopeId = answer.providerEnvelopeId;
  const outcome = await inOwnCase(store, financingCase, (transaction) =>
    acceptRequestedEnvelope(transaction, request.envelopeId, providerEnvelopeId, signing.now()),
  );
  if ('refused' in outcome) throw outcome.refused;
  return outcome.started;
}

interface PlannedRequest {
  request: { envelopeId: string; contractId: string; persons: NewAuthorizedPerson[] };
  contractNumber: string | null;
  quote: Quote;
}

/**
 * Step 1, in the locked case: the open envelope of these persons is the answer; a reserved
 * request of these persons is asked again; other reserved requests are superseded (voided once
 * their attempt can no longer be on its way); else a new envelope is reserved.
 */
async function planEnvelopeRequest(
  transaction: CaseRecord & SigningWork,
  persons: NewAuthorizedPerson[],
  now: Date,
): Promise<{ started: StartedEsignature } | PlannedRequest> {
  const refusal = startRefusal(transaction);
  if (refusal) throw refusal;
  const open = await openEnvelopeFor(transaction, persons);
  if (open) return { started: open };
  const requestedUntil = new Date(now.getTime() + ENVELOPE_REQUEST_LEASE_MS);
  const requested = (await transaction.providerEnvelopes()).filter((envelope) => envelope.state === 'requested');
  const same = requested.find((envelope) => samePersons(envelope.persons, persons));
  for (const other of requested) {
    if (other !== same) await transaction.queueEnvelopeVoid(other.envelopeId, 'replaced', laterOf(now, other.requestedUntil));
  }
  const context = { contractNumber: transaction.contract?.contractNumber ?? null, quote: transaction.quote };
  if (same) {
    await transaction.retryProviderEnvelope(same.envelopeId, requestedUntil);
    return { request: { envelopeId: same.envelopeId, contractId: same.contractId, persons: same.persons }, ...context };
  }
  const request = { envelopeId: ulid(), contractId: transaction.contract?.id ?? ulid(), persons };
  await transaction.reserveProviderEnvelope({ ...request, requestedUntil });
  return { request, ...context };
}

/**
 * Step 3, in the locked case (also when the provider's callback about a requested envelope comes
 * first): the provider took the envelope, so it becomes the contract's (created when missing, with
 * the id the provider was told), its persons the quote's authorized persons; the envelope it
 * replaces and any other reserved request are voided at the provider. When the case no longer
 * takes it (or a newer start replaced it), it is voided and the refusal returned, to be thrown
 * once the void is committed.
 */
export async function acceptRequestedEnvelope(
  transaction: EsignatureWork,
  envelopeId: string,
  providerEnvelopeId: string | null,
  now: Date,
): Promise<{ started: StartedEsignature } | { refused: DomainError }> {
  const envelopes = await transaction.providerEnvelopes();
  const target = envelopes.find((envelope) => envelope.envelopeId === envelopeId);
  if (!target) return { refused: envelopeReplaced(envelopeId) };
  if (target.state === 'accepted') {
    if (providerEnvelopeId && !target.providerEnvelopeId) await transaction.setProviderEnvelopeId(envelopeId, providerEnvelopeId);
    return { started: started(transaction, target.contractId, envelopeId, await transaction.authorizedPersons()) };
  }
  const otherContract = transaction.contract && transaction.contract.id !== target.contractId;
  const refusal = startRefusal(transaction) ?? (otherContract ? envelopeReplaced(envelopeId) : null);
  if (refusal) {
    await transaction.queueEnvelopeVoid(envelopeId, 'not_startable', laterOf(now, target.requestedUntil));
    return { refused: refusal };
  }
  const contract = transaction.contract ?? (await transaction.createContract(target.contractId));
  const replaced = transaction.envelope?.status === 'sent' ? transaction.envelope : null;
  if (replaced && envelopes.some((envelope) => envelope.envelopeId === replaced.id)) await transaction.queueEnvelopeVoid(replaced.id, 'replaced', now);
  for (const other of envelopes) {
    if (other.state === 'requested' && other.envelopeId !== envelopeId)
      await transaction.queueEnvelopeVoid(other.envelopeId, 'replaced', laterOf(now, other.requestedUntil));
  }
  const authorizedPersons = await transaction.replaceAuthorizedPersons(target.persons);
  await transaction.sendEnvelope(recipientsOf(target.persons), envelopeId);
  await transaction.acceptProviderEnvelope(envelopeId, providerEnvelopeId);
  await transaction.recordHistory('envelope_requested', { details: { envelopeId, providerEnvelopeId, replacedEnvelopeId: replaced?.id ?? null } });
  return { started: started(transaction, contract.id, envelopeId, authorizedPersons) };
}
