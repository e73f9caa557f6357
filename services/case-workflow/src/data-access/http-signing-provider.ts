import type { EnvelopeRequest, SignedMessages, SigningProvider } from '../domain/ports';
import { postSigned } from './standard-webhooks';

const SIGNING_TIMEOUT_MS = 10_000;

/** The signing provider's envelope API, signed with SIGNING_WEBHOOK_SECRET; the envelope id is the webhook-id. */
export class HttpSigningProvider implements SigningProvider {
  constructor(private readonly options: { url: string; secret: string; publicBaseUrl: string; signed: SignedMessages; now(): Date; timeoutMs?: number }) {}

  async requestEnvelope(request: EnvelopeRequest): Promise<{ providerEnvelopeId: string }> {
    const message = {
      type: 'envelope.requested',
      timestamp: this.options.now().toISOString(),
      data: {
        envelopeId: request.envelopeId,
        financingCaseId: request.financingCaseId,
        contractId: request.contractId,
        contractNumber: request.contractNumber,
        signers: request.signers,
        document: { fileName: request.document.fileName, mimeType: 'application/pdf', contentBase64: request.document.content.toString('base64') },
        callbackUrl: `${this.options.publicBaseUrl}/signing/v1/events`,
      },
    };
    const answer = await postSigned(this.options.signed, `${this.options.url}/envelopes`, this.options.secret, request.envelopeId, message, this.options.timeoutMs ?? SIGNING_TIMEOUT_MS);
    if (answer.status < 200 || answer.status > 299) throw new Error(`the signing provider answered ${answer.status}`);
    const providerEnvelopeId = (answer.body as { providerEnvelopeId?: unknown } | null)?.providerEnvelopeId;
    if (typeof providerEnvelopeId !== 'string' || !providerEnvelopeId) throw new Error('the signing provider answered without a providerEnvelopeId');
    return { providerEnvelopeId };
  }
}
