import type { Logger } from '@rental/logger';
import type { PartnerMail } from '../domain/ports';

/**
 * The partner's mail about a rejected document is requested through the mail-request channel
 * of notifications once it exists; until then the request is written to the log.
 */
export class LoggedPartnerMail implements PartnerMail {
  constructor(private readonly log: Logger) {}

  async documentRejected(mail: Parameters<PartnerMail['documentRejected']>[0]): Promise<void> {
    this.log.info({ partnerId: mail.partnerId, financingCaseId: mail.financingCaseId, documentId: mail.documentId }, 'document rejected: partner mail requested');
  }
}
