import type { EnvelopeRequest, EnvelopeVoidRequest, SignedMessages, SigningProvider } from '../domain/signing/ports';
import { postSigned } from './standard-webhooks';

const SIGNING_TIMEOUT_MS = 10_000;

const isSuccess = (status: number) => status >= 200 && status <= 299;

/**
 * The signing provider's envelope API, signed with SIGNING_WEBHOOK_SECRET. The envelope id is the
 * webhook-id of its request (the same on every attempt, so the provider recognises a repeat);
 * a void is its own message, `void-<envelope id>`, the same on every attempt of that void.
 */
export class HttpSigningProvider implements SigningProvider {
  constructor(private readonly options: { url: string; secret: string; publicBaseUrl: string; signed: SignedMessages; now(): Date; timeoutMs?: number }) {}

  async requestEnvelope(request: EnvelopeRequest): Promise<{ accepted: true; providerEnvelopeId: string | null } | { accepted: false; status: number }> {
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
    const answer = await this.post('/envelopes', request.envelopeId, message);
    if (!isSuccess(answer.status)) return { accepted: false, status: answer.status };
    // A 2xx means the provider holds the envelope; an answer without its id (a repeat the provider
    // recognised) is taken as it is, and the id comes with the provider's envelope.sent.
    const providerEnvelopeId = (answer.body as { providerEnvelopeId?: unknown } | null)?.providerEnvelopeId;
    return { accepted: true, providerEnvelopeId: typeof providerEnvelopeId === 'string' && providerEnvelopeId ? providerEnvelopeId : null };
  }

  async voidEnvelope(request: EnvelopeVoidRequest): Promise<void> {
    const message = {
      type: 'envelope.void',
      timestamp: this.options.now().toISOString(),
      data: { envelopeId: request.envelopeId, providerEnvelopeId: request.providerEnvelopeId, reason: request.reason },
    };
    const answer = await this.post(`/envelopes/${encodeURIComponent(request.envelopeId)}/void`, `void-${request.envelopeId}`, message);
    // 404: the provider never took the envelope (its request failed or never arrived), so nothing is open.
    if (!isSuccess(answer.status) && answer.status !== 404) throw new Error(`the signing provider answered ${answer.status} to the void`);
  }

  private post(path: string, webhookId: string, message: unknown) {
    return postSigned(this.options.signed, `${this.options.url}${path}`, this.options.secret, webhookId, message, this.options.timeoutMs ?? SIGNING_TIMEOUT_MS);
  }
}
