import type { TraceOrigin } from '@rental/logger';
import type { AuthorizedPerson, EnvelopeRecipient, FinancingCase, SignatureEnvelope } from '../shared/model';
import type { EnvelopeStatus } from '../contract/contract-machine';

/** The signature envelope, the persons who sign and the envelopes at the signing provider. */
export interface SigningWork {
  /** A new envelope, sent, replacing an earlier one of the contract; `id` when the provider holds it under that id. */
  sendEnvelope(recipients: EnvelopeRecipient[], id?: string): Promise<SignatureEnvelope>;
  setEnvelopeStatus(status: EnvelopeStatus, declineReason?: string | null): Promise<void>;
  deleteEnvelope(): Promise<void>;
  replaceAuthorizedPersons(persons: NewAuthorizedPerson[]): Promise<AuthorizedPerson[]>;
  /** The quote's authorized persons, in the order given. */
  authorizedPersons(): Promise<AuthorizedPerson[]>;
  /** The lender's statement of who may sign (start-esignature rule 4); null: none. */
  setSigningStatement(statement: SigningStatement | null): Promise<void>;
  /** The case's envelopes at the signing provider that are requested or accepted (not being voided), locked until the transaction ends. */
  providerEnvelopes(): Promise<ProviderEnvelope[]>;
  /** Reserves an envelope before the provider is asked; its first attempt may be on its way until `requestedUntil`. */
  reserveProviderEnvelope(reservation: { envelopeId: string; contractId: string; persons: NewAuthorizedPerson[]; requestedUntil: Date }): Promise<void>;
  /** One more attempt of a requested envelope's request (the same envelope id), on its way until `requestedUntil`. */
  retryProviderEnvelope(envelopeId: string, requestedUntil: Date): Promise<void>;
  /** The provider took the requested envelope: it is the contract's envelope from now on. */
  acceptProviderEnvelope(envelopeId: string, providerEnvelopeId: string | null): Promise<void>;
  /** The provider refused the envelope's only request: nothing of it is left to void. */
  forgetProviderEnvelope(envelopeId: string): Promise<void>;
  /** The envelope is voided at the provider by the void worker, from `dueAt` on; woken once the transaction committed. */
  queueEnvelopeVoid(envelopeId: string, reason: EnvelopeVoidReason, dueAt: Date): Promise<void>;
  setProviderEnvelopeId(envelopeId: string, providerEnvelopeId: string): Promise<void>;
}

/** The signing's reads outside the locked case: a provider callback's envelope, the lender's statement a start checks. */
export interface SigningReads {
  /** The case and contract of an envelope requested at the signing provider. */
  findProviderEnvelope(envelopeId: string): Promise<{ financingCaseId: string; contractId: string } | undefined>;
  findSigningStatement(financingCaseId: string): Promise<SigningStatement | null>;
}

export interface NewAuthorizedPerson {
  firstName: string;
  lastName: string;
  email: string;
  soloSigneePermitted: boolean;
}

/** Standard Webhooks signing and verification with a `whsec_` secret. */
export interface SignedMessages {
  /** The webhook-id, webhook-timestamp and webhook-signature headers of `body`. */
  headers(secret: string, id: string, body: string): Record<string, string>;
  /** false for a missing or wrong signature, or a timestamp more than 5 minutes away. */
  verify(secret: string, body: string, headers: Record<string, string | undefined>): boolean;
}

/** The signing provider behind start-esignature in production. */
export interface SigningProvider {
  /**
   * Asks for the envelope (its id is the request's webhook-id, the same on every attempt, so the
   * provider recognises a repeat): accepted on a 2xx (with the provider's id when it gave one),
   * refused on another answer; throws when no answer came in time (the outcome is unknown).
   */
  requestEnvelope(request: EnvelopeRequest): Promise<{ accepted: true; providerEnvelopeId: string | null } | { accepted: false; status: number }>;
  /** Resolves once the provider voided the envelope or does not know it (2xx or 404); throws on anything else. */
  voidEnvelope(request: EnvelopeVoidRequest): Promise<void>;
}

export interface EnvelopeVoidRequest {
  envelopeId: string;
  providerEnvelopeId: string | null;
  reason: EnvelopeVoidReason;
}

/**
 * replaced: a start with other persons; abandoned: its request's outcome stayed unknown; not_startable: the case no longer
 * allows the envelope the provider took.
 */
export type EnvelopeVoidReason = 'replaced' | 'abandoned' | 'not_startable';

/** An envelope at the signing provider, as the case's transaction holds it. */
export interface ProviderEnvelope {
  envelopeId: string;
  contractId: string;
  providerEnvelopeId: string | null;
  /** requested: the provider is being asked, or was and its answer was lost; accepted: it is the contract's envelope. */
  state: 'requested' | 'accepted';
  /** The persons the envelope was requested for. */
  persons: NewAuthorizedPerson[];
  requestAttempts: number;
  /** Until then an attempt of the request may be on its way to the provider. */
  requestedUntil: Date | null;
}

/** A void the worker owes the provider. */
export interface EnvelopeVoid extends TraceOrigin {
  envelopeId: string;
  financingCaseId: string;
  providerEnvelopeId: string | null;
  reason: EnvelopeVoidReason;
  /** Attempts so far, this one counted. */
  attempts: number;
}

/** Voids as a leased work queue, like lender submissions: replicas never void one twice at a time. */
export interface EnvelopeVoidQueue {
  /** Due voids, and requested envelopes whose request stayed unanswered past `requestedUntil` (abandoned), leased to this worker. */
  claimDue(now: Date, limit: number): Promise<EnvelopeVoid[]>;
  /** When the next void falls due, or undefined. */
  nextDueAt(): Promise<Date | undefined>;
  /** Done (2xx or 404), in the case's history by the system. */
  markVoided(envelopeId: string, at: Date): Promise<void>;
  /** Failed; tried again at `retryAt`, or never again (null). */
  markVoidFailed(envelopeId: string, error: string, retryAt: Date | null, at: Date): Promise<void>;
}

export interface EnvelopeRequest {
  envelopeId: string;
  financingCaseId: string;
  contractId: string;
  contractNumber: string | null;
  signers: { firstName: string; lastName: string; email: string }[];
  document: { fileName: string; content: Buffer };
}

/** Who may sign for the customer, as the lender stated it. */
export interface SigningStatement {
  signatories: { firstName: string; lastName: string; email: string | null }[];
  /** How many of them must sign together. */
  minimumSigners: number;
}

export interface SigningStatementSource {
  /** The lender's statement for the case, or null when the lender issued none. */
  statementFor(financingCase: FinancingCase): Promise<SigningStatement | null>;
}
