import { unavailable } from '@rental/problem';
import type { LenderChannel } from '../domain/ports';

/**
 * Transmission and resubmission go through case-workflow, which talks to lenders
 * (SendLenderAttachments, ResubmitToLender). Until it offers those calls, both answer 503 and
 * nothing changes.
 */
export class PendingLenderChannel implements LenderChannel {
  async sendAttachments(): Promise<void> {
    throw unavailable('ops.lender_channel_unavailable', 'Sending attachments to the lender is not available yet; nothing was changed.');
  }

  async resubmit(): Promise<void> {
    throw unavailable('ops.lender_channel_unavailable', 'Resubmitting to the lender is not available yet; nothing was changed.');
  }
}
