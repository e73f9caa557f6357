/**
 * The approval team's queue filters, as the back office asks for them and case-workflow applies
 * them (ListOpsQueue, whose message each side maps to and from). null: any.
 */
export interface OpsQueueFilters {
  /** Quote statuses; empty: every status. */
  statuses: string[];
  partnerId: string | null;
  lenderSubmissionStatus: string | null;
  query: string | null;
  /** Only these cases (the ones documents names as overdue), when set. */
  onlyCases: string[] | null;
  limit: number;
  offset: number;
}
