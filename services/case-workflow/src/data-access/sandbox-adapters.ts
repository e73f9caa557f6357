import type { Logger } from '@rental/logger';
import type { LenderAdapter, LenderAttachments, LenderSubmission } from '../domain/lender/ports';
import type { SigningStatement, SigningStatementSource } from '../domain/signing/ports';

/**
 * The sandbox lender: accepts every submission at once and answers a reference; nothing leaves
 * the process. Decisions come from the sandbox endpoints, as a real lender's would come later.
 */
export class SandboxLender implements LenderAdapter {
  constructor(private readonly log: Logger) {}

  async submit(submission: LenderSubmission): Promise<{ reference: string }> {
    const reference = `SBX-${submission.financingCaseId}-${submission.id}`;
    this.log.info(
      { financingCaseId: submission.financingCaseId, quoteId: submission.quoteId, lenderId: submission.lenderId, reference },
      'sandbox lender received a submission',
    );
    return { reference };
  }

  async sendAttachments(lenderId: string, reference: string, attachments: LenderAttachments): Promise<void> {
    this.log.info(
      { financingCaseId: attachments.financingCaseId, lenderId, reference, items: attachments.items.length },
      'sandbox lender received attachments',
    );
  }
}

/** The sandbox lender issues no statement of who may sign: persons are taken as given. */
export class SandboxSigningStatements implements SigningStatementSource {
  async statementFor(): Promise<SigningStatement | null> {
    return null;
  }
}
