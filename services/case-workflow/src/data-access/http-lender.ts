import { ulid } from '@rental/ids';
import type { Logger } from '@rental/logger';
import type { LenderAdapter, LenderAttachments, LenderDirectory, LenderSubmission } from '../domain/lender/ports';
import type { SignedMessages } from '../domain/signing/ports';
import { postSigned } from './standard-webhooks';

const LENDER_TIMEOUT_MS = 10_000;

export interface HttpLenderOptions {
  lenders: LenderDirectory;
  signed: SignedMessages;
  /** The application's data for a submission (case, quote, credit check); see domain/lender.ts. */
  application(submission: LenderSubmission, lenderId: string): Promise<Record<string, unknown>>;
  /**
   * Serves lenders without an intakeUrl: `{simulatorUrl}/lenders/{id}` is their intake; null (production
   * without PRODUCTION_SIMULATORS): such a lender cannot be reached.
   */
  simulatorUrl: string | null;
  timeoutMs?: number;
  now(): Date;
  log: Logger;
}

/**
 * A lender's intake over HTTP, signed with that lender's secret (Standard Webhooks). The
 * application id is the webhook-id of every attempt, so the lender can tell a retry from a
 * new application. Any non-2xx, a connection error or no answer in 10 s is a failed attempt.
 */
export class HttpLender implements LenderAdapter {
  constructor(private readonly options: HttpLenderOptions) {}

  private async lender(id: string | null) {
    const lender = id ? await this.options.lenders.findLender(id) : undefined;
    if (!lender) throw new Error(id ? `lender ${id} is not loaded (seed command)` : 'the partner has no lender');
    const { simulatorUrl } = this.options;
    if (!lender.intakeUrl && !simulatorUrl)
      throw new Error(`lender ${lender.id} has no intakeUrl and production uses no lender simulator (PRODUCTION_SIMULATORS)`);
    return { ...lender, intake: (lender.intakeUrl ?? `${simulatorUrl}/lenders/${encodeURIComponent(lender.id)}`).replace(/\/+$/, '') };
  }

  async submit(submission: LenderSubmission): Promise<{ reference: string }> {
    const lender = await this.lender(submission.lenderId);
    const data = await this.options.application(submission, lender.id);
    const message = { type: 'application.submitted', timestamp: this.options.now().toISOString(), data };
    const answer = await this.post(`${lender.intake}/applications`, lender.webhookSecret, submission.applicationId, message);
    const reference = (answer as { reference?: unknown } | null)?.reference;
    if (typeof reference !== 'string' || reference.length < 1 || reference.length > 64)
      throw new Error('the lender answered without a reference of 1 to 64 characters');
    this.options.log.info(
      { financingCaseId: submission.financingCaseId, lenderId: lender.id, applicationId: submission.applicationId, reference },
      'lender took the application',
    );
    return { reference };
  }

  async sendAttachments(lenderId: string, reference: string, attachments: LenderAttachments): Promise<void> {
    const lender = await this.lender(lenderId);
    const message = { type: 'application.attachments', timestamp: this.options.now().toISOString(), data: attachments };
    await this.post(`${lender.intake}/applications/${encodeURIComponent(reference)}/attachments`, lender.webhookSecret, ulid(), message);
  }

  private async post(url: string, secret: string, id: string, message: unknown): Promise<unknown> {
    let answer: { status: number; body: unknown };
    try {
      answer = await postSigned(this.options.signed, url, secret, id, message, this.options.timeoutMs ?? LENDER_TIMEOUT_MS);
    } catch (error) {
      // fetch rejects a timeout with a DOMException, which is not always an Error of this realm.
      const name = (error as { name?: unknown } | null)?.name;
      const timedOut = name === 'TimeoutError' || name === 'AbortError';
      throw new Error(
        timedOut
          ? 'the lender did not answer within the timeout'
          : `the lender could not be reached: ${(error as { message?: unknown } | null)?.message ?? String(error)}`,
      );
    }
    if (answer.status < 200 || answer.status > 299) throw new Error(`the lender answered ${answer.status}`);
    return answer.body;
  }
}
