import { z } from 'zod';
import { DomainError, boundedText, choiceMessage, conflict, NOT_BLANK_MESSAGE, notFound } from '@rental/problem';
import { acceptRequestedEnvelope } from './esignature';
import type { Actor, FinancingCase } from '../shared/model';
import type { CaseRecord } from '../case/ports';
import type { SigningReads, SigningStatement, SigningStatementSource, SigningWork } from './ports';
import { SignedCallbackDependencies, signedEvent } from '../shared/signed-callback';
import type { ContractWork } from '../contract/ports';

const SIGNING_ACTOR: Actor = { type: 'signing', id: 'signing-provider', name: 'Signing provider' };
const SENDER = 'signing';

const id = (max: number) => boundedText(max);
const timestamp = z.iso.datetime({ offset: true, message: 'This value is not a valid ISO 8601 date and time.' });
const PDF_MAGIC = Buffer.from('%PDF-');

const signedDocument = z.object({
  fileName: id(255),
  contentBase64: z
    .base64('This value is not valid base64.')
    .min(1, NOT_BLANK_MESSAGE)
    .refine((value) => Buffer.from(value, 'base64').subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC), 'This value is not a PDF document.'),
});

const signingEvent = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('envelope.sent'), timestamp, data: z.object({ envelopeId: id(26), providerEnvelopeId: id(255) }) }),
    z.object({ type: z.literal('envelope.signed'), timestamp, data: z.object({ envelopeId: id(26), providerEnvelopeId: id(255).optional(), signedDocument }) }),
    z.object({
      type: z.literal('envelope.declined'),
      timestamp,
      data: z.object({ envelopeId: id(26), providerEnvelopeId: id(255).optional(), reason: z.string().max(1000).nullable().optional() }),
    }),
  ],
  { message: choiceMessage(['envelope.sent', 'envelope.signed', 'envelope.declined']) },
);

export type SigningEvent = z.infer<typeof signingEvent>;

export interface SigningCallbackDependencies extends SignedCallbackDependencies {
  store: SignedCallbackDependencies['store'] & SigningReads;
  /** SIGNING_WEBHOOK_SECRET; undefined outside production, where the provider never calls. */
  secret: string | undefined;
  now(): Date;
}

/**
 * POST /signing/v1/events: the provider reports an envelope sent, signed (the contract moves to
 * signed and the provider's PDF becomes the case's signed contract) or declined (the partner may
 * start again). A report about an envelope whose request is still unanswered here shows the
 * provider took it: the envelope becomes the contract's first. Applied at most once per
 * webhook-id; a refusal changes nothing. No call leaves while the case is locked: the signed PDF
 * is stored after the move committed, and the callback counts as applied only once it is stored,
 * so the provider's retry of a failed store stores it then.
 */
export async function receiveSigningEvent(deps: SigningCallbackDependencies, raw: string, headers: Record<string, string | undefined>): Promise<void> {
  if (!deps.secret) throw notFound('route.not_found', 'Signing callbacks exist only in the production environment.');
  const { webhookId, event } = signedEvent(deps.signed, deps.secret, raw, headers, signingEvent);
  const { envelopeId } = event.data;
  const unknownEnvelope = () => notFound('signature_envelope.not_found', `No signature envelope ${envelopeId}.`);
  const known = await deps.store.findProviderEnvelope(envelopeId);
  if (!known) throw unknownEnvelope();
  if (await deps.store.isCallbackApplied(SENDER, webhookId)) return;
  const outcome = await deps.store.inCase(
    known.financingCaseId,
    async (transaction): Promise<{ refused: DomainError } | { signedContract: SignedContract | null }> => {
      if (event.type !== 'envelope.signed' && !(await transaction.markCallbackApplied(SENDER, webhookId))) return { signedContract: null };
      const held = (await transaction.providerEnvelopes()).find((envelope) => envelope.envelopeId === envelopeId);
      if (held?.state === 'requested') {
        const accepted = await acceptRequestedEnvelope(transaction, envelopeId, event.data.providerEnvelopeId ?? null, deps.now());
        if ('refused' in accepted) return accepted;
      }
      if (transaction.envelope?.id !== envelopeId) {
        throw conflict('signing.envelope_replaced', `The signature envelope ${envelopeId} was replaced by a newer one; its events no longer apply.`);
      }
      return { signedContract: await applyEnvelopeEvent(transaction, event) };
    },
    { actor: SIGNING_ACTOR, reason: event.type === 'envelope.declined' ? (event.data.reason ?? null) : null },
  );
  if (!outcome) throw unknownEnvelope();
  if ('refused' in outcome.result) throw outcome.result.refused;
  const { signedContract } = outcome.result;
  if (!signedContract) return;
  await deps.documents.storeSignedContract(
    signedContract.financingCaseId,
    signedContract.contractId,
    {
      fileName: signedContract.fileName,
      content: signedContract.content,
    },
    { partnerId: signedContract.partnerId },
  );
  await deps.store.markCallbackApplied(SENDER, webhookId);
}

/** The provider's signed PDF, stored for the case once its contract moved to signed. */
interface SignedContract {
  financingCaseId: string;
  partnerId: string;
  contractId: string;
  fileName: string;
  content: Buffer;
}

async function applyEnvelopeEvent(transaction: CaseRecord & ContractWork & SigningWork, event: SigningEvent): Promise<SignedContract | null> {
  const envelope = transaction.envelope as NonNullable<CaseRecord['envelope']>;
  if (event.data.providerEnvelopeId) await transaction.setProviderEnvelopeId(envelope.id, event.data.providerEnvelopeId);
  const closed = () =>
    conflict('signing.envelope_closed', `The signature envelope ${envelope.id} is ${envelope.status} already; ${event.type} cannot be applied to it.`);
  switch (event.type) {
    case 'envelope.sent':
      await transaction.recordHistory('envelope_sent', { details: { envelopeId: envelope.id, providerEnvelopeId: event.data.providerEnvelopeId } });
      return null;
    case 'envelope.signed': {
      const contract = transaction.contract;
      if (!contract) throw closed();
      // Signed already by this envelope: an earlier report whose PDF could not be stored; only the store is left.
      if (envelope.status !== 'signed') {
        if (envelope.status !== 'sent') throw closed();
        if (contract.status !== 'wait_for_signing')
          throw conflict('signing.contract_not_waiting', `The contract is ${contract.status}; a signature applies only while it waits for signing.`);
        await transaction.setEnvelopeStatus('signed');
        await transaction.moveContract('sign');
      }
      const { financingCase } = transaction;
      return {
        financingCaseId: financingCase.id,
        partnerId: financingCase.partnerId,
        contractId: contract.id,
        fileName: event.data.signedDocument.fileName,
        content: Buffer.from(event.data.signedDocument.contentBase64, 'base64'),
      };
    }
    case 'envelope.declined':
      if (envelope.status !== 'sent') throw closed();
      await transaction.setEnvelopeStatus('declined', event.data.reason ?? null);
      await transaction.recordHistory('envelope_declined', { details: { envelopeId: envelope.id } });
      return null;
  }
}

/** Production: the statement the lender sent with its acceptance, kept on the quote. */
export class StoredSigningStatements implements SigningStatementSource {
  constructor(private readonly store: SigningReads) {}

  statementFor(financingCase: FinancingCase): Promise<SigningStatement | null> {
    return this.store.findSigningStatement(financingCase.id);
  }
}
