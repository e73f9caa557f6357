import { z } from 'zod';
import { Violation, boundedText, emailAddress, ruleViolation, unavailable, validationFailed } from '@rental/problem';
import { caseNotFound } from './access';
import { AuthorizedPerson, FinancingCase, partnerActor } from './model';
import type { CaseStore, ContractRenderer, NewAuthorizedPerson, SigningProvider, SigningStatement, SigningStatementSource } from './ports';

/** Shared mailboxes reach a team, not a person who can sign; the invitation must go to a signer. */
const GENERIC_MAILBOXES = ['info', 'office', 'kontakt', 'contact', 'mail', 'admin', 'support', 'sales', 'service', 'team', 'hello', 'buchhaltung', 'noreply', 'no-reply', 'post', 'verwaltung'] as const;

const name = boundedText(100);

export const startEsignatureBody = z.object({
  authorizedPersons: z.array(z.object({
    firstName: name,
    lastName: name,
    email: emailAddress().max(320).describe('The signing invitation goes here; shared mailboxes (info@, office@, …) are refused'),
    soloSigneePermitted: z.boolean().default(false).describe('true when this person may sign alone'),
  }).meta({ id: 'AuthorizedPersonInput' })).min(1, 'At least one person is required.').max(20, 'At most 20 persons.'),
}).meta({ id: 'StartEsignatureRequest' });

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
  return statement.signatories.some((signatory) => signatory.email !== null
    && normalized(signatory.email) === normalized(person.email)
    && normalized(signatory.firstName) === normalized(person.firstName)
    && normalized(signatory.lastName) === normalized(person.lastName));
}

function notOnStatementMessage(person: NewAuthorizedPerson, statement: SigningStatement): string {
  const sameName = statement.signatories.find((signatory) => normalized(signatory.firstName) === normalized(person.firstName) && normalized(signatory.lastName) === normalized(person.lastName));
  if (!sameName) return `${person.firstName} ${person.lastName} is not named on the lender's statement of who may sign for the customer.`;
  if (sameName.email === null) return `The lender's statement names ${person.firstName} ${person.lastName} without an e-mail address, so no invitation can be bound to them; ask the lender for a statement with their address.`;
  return `The lender's statement names ${person.firstName} ${person.lastName} with another e-mail address; the invitation must go to the address the lender gave.`;
}

/** One mailbox however it is written: case-insensitive, a +tag of the local part ignored. */
function mailboxOf(email: string): string {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at).split('+')[0] ?? '';
  return `${local}@${email.slice(at + 1)}`.trim().toLowerCase();
}

const samePerson = (a: NewAuthorizedPerson, b: NewAuthorizedPerson) => mailboxOf(a.email) === mailboxOf(b.email)
  || (normalized(a.firstName) === normalized(b.firstName) && normalized(a.lastName) === normalized(b.lastName));

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
      violations.push({ propertyPath: `authorizedPersons[${index}].email`, code: 'esignature.generic_mailbox', message: `${person.email} is a shared mailbox; the invitation must go to the person who signs.` });
    }
  });
  // Two entries of one person are one signer: the two-signer rule counts persons, not entries.
  const repeated = repeatedPersons(persons);
  for (const { index, earlier } of repeated) {
    const person = persons[index] as NewAuthorizedPerson;
    violations.push({ propertyPath: `authorizedPersons[${index}]`, code: 'esignature.duplicate_person', message: `${person.firstName} ${person.lastName} <${person.email}> is the same person as authorizedPersons[${earlier}]; each signer counts once.` });
  }
  const signers = persons.length - repeated.length;
  if (signers === 1 && !persons[0]?.soloSigneePermitted) {
    violations.push({ propertyPath: 'authorizedPersons', code: 'esignature.signers_insufficient', message: 'A single person must be permitted to sign alone (soloSigneePermitted true); otherwise at least two persons are needed.' });
  }
  if (statement) {
    persons.forEach((person, index) => {
      if (!onStatement(person, statement)) {
        violations.push({ propertyPath: `authorizedPersons[${index}]`, code: 'esignature.not_on_signing_statement', message: notOnStatementMessage(person, statement) });
      }
    });
    // The lender's rule stands whatever the partner says about signing alone.
    if (signers < statement.minimumSigners) {
      violations.push({ propertyPath: 'authorizedPersons', code: 'esignature.signing_rule_not_met', message: `The lender's statement requires at least ${statement.minimumSigners} persons to sign together; ${signers} ${signers === 1 ? 'was' : 'were'} given (soloSigneePermitted does not lower the lender's minimum).` });
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

export interface EsignatureDependencies {
  store: CaseStore;
  signingStatements: SigningStatementSource;
  /** Production: the contract is rendered and sent to the signing provider before the partner's 200. */
  signing?: { provider: SigningProvider; renderer: ContractRenderer };
}

const notAccepted = (financingCase: FinancingCase) => {
  const message = `The quote is ${financingCase.status}; an e-signature can start only once it is finance_accepted.`;
  return ruleViolation('esignature.quote_not_accepted', message, [{ propertyPath: '', code: 'esignature.quote_not_accepted', message }]);
};

/**
 * POST /api/financing-cases/{id}/start-esignature: the persons become the quote's authorized
 * persons, the contract is created at wait_for_signing when missing, and a signature envelope
 * to the persons is sent (replacing one that was not signed).
 */
export async function startEsignature(deps: EsignatureDependencies, financingCase: FinancingCase, { authorizedPersons: persons }: StartEsignatureInput): Promise<StartedEsignature> {
  const { id } = financingCase;
  if (financingCase.status !== 'finance_accepted') throw notAccepted(financingCase);
  const violations = signerViolations(persons, await deps.signingStatements.statementFor(financingCase));
  if (violations.length > 0) throw validationFailed(violations);
  const items = deps.signing ? (await deps.store.findQuoteDetails(financingCase.quoteId))?.items ?? [] : [];

  const outcome = await deps.store.inCase(id, async (transaction) => {
    if (transaction.financingCase.status !== 'finance_accepted') throw notAccepted(transaction.financingCase);
    const contract = transaction.contract ?? await transaction.createContract();
    if (contract.status !== 'wait_for_signing') {
      const message = `The contract is ${contract.status}; an e-signature can start only while it waits for signing.`;
      throw ruleViolation('esignature.contract_not_waiting', message, [{ propertyPath: '', code: 'esignature.contract_not_waiting', message }]);
    }
    if (transaction.envelope?.status === 'signed') {
      const message = 'The contract\'s signature envelope is already signed.';
      throw ruleViolation('esignature.already_signed', message, [{ propertyPath: '', code: 'esignature.already_signed', message }]);
    }
    const authorizedPersons = await transaction.replaceAuthorizedPersons(persons);
    const envelope = await transaction.sendEnvelope(persons.map((person) => ({ name: `${person.firstName} ${person.lastName}`, email: person.email, role: 'signer' })));
    if (deps.signing) {
      // Inside the transaction: when the provider fails, everything above rolls back and no envelope is left behind.
      const signers = persons.map(({ firstName, lastName, email }) => ({ firstName, lastName, email }));
      const contractNumber = transaction.contract?.contractNumber ?? null;
      await transaction.recordProviderEnvelope(envelope.id);
      const document = await deps.signing.renderer.render({ caseNumber: financingCase.caseNumber, contractNumber, quote: transaction.quote, items, signers });
      let providerEnvelopeId: string;
      try {
        ({ providerEnvelopeId } = await deps.signing.provider.requestEnvelope({
          envelopeId: envelope.id,
          financingCaseId: id,
          contractId: contract.id,
          contractNumber,
          signers,
          document: { fileName: `contract-${financingCase.caseNumber}.pdf`, content: document },
        }));
      } catch (error) {
        throw unavailable('signing.provider_unavailable', 'The signing provider did not take the envelope. Nothing was started; retry later.', error);
      }
      await transaction.setProviderEnvelopeId(envelope.id, providerEnvelopeId);
    }
    return { financingCaseId: id, contractId: contract.id, envelopeId: envelope.id, status: 'sent' as const, authorizedPersons };
  }, { actor: partnerActor(financingCase.partnerId) });
  if (!outcome) throw caseNotFound(id);
  return outcome.result;
}
