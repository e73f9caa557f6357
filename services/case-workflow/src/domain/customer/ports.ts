/** The customer's links to the quote and the review's reminder clock. */
export interface CustomerLinkWork {
  /** The earliest end after `after` of the case's customer links that still work, or null. */
  nextCustomerLinkExpiry(after: Date): Promise<Date | null>;
  /**
   * A new customer link of the quote (only its hash is stored). With `replace`, every earlier
   * link of the case stops working (410); a reminder's copy leaves them working.
   */
  issueCustomerLink(link: NewCustomerLink): Promise<IssuedCustomerLink>;
  /** The customer was mailed about the review now: the reminder clock starts again. */
  markReviewMailed(): Promise<void>;
  /** One more reminder: reminderCount + 1 and lastReminderAt now (no status change, no event). */
  recordReminder(): Promise<void>;
  /** The newest working link with actions (what a reminder copies), or null. */
  currentCustomerLink(): Promise<{ email: string | null; expiresAt: string } | null>;
}

/** The customer's links as the customer's page opens them. */
export interface CustomerLinkReads {
  findCustomerLink(tokenHash: string): Promise<CustomerLink | undefined>;
}

export interface NewCustomerLink {
  email: string | null;
  viewOnly: boolean;
  replace: boolean;
  /** Absolute end; the default is now + CUSTOMER_LINK_TTL, decided by the caller. */
  expiresAt: Date;
}

export interface IssuedCustomerLink {
  /** The token in plain text: only in the answer and the mail, never stored. */
  token: string;
  expiresAt: string;
}

/** A customer link as stored. */
export interface CustomerLink {
  id: number;
  financingCaseId: string;
  quoteId: string;
  email: string | null;
  viewOnly: boolean;
  createdAt: string;
  expiresAt: string;
  invalidatedAt: string | null;
  /** The case's sandbox clock offset: the link's end is compared with the case's clock. */
  clockOffsetMs: number;
}
