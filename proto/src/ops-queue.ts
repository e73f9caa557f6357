import type { ListOpsQueueRequest, ListOpsQueueRequest__Output } from './generated/rental/case_workflow/v1/ListOpsQueueRequest';

/**
 * The approval team's queue filters, as the back office asks for them and case-workflow applies
 * them (ListOpsQueue). null: any.
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

/** The filters as a message: an empty string stands for null, and a flag says whether the list of cases counts. */
export function opsQueueRequestOf(filters: OpsQueueFilters): ListOpsQueueRequest {
  return {
    statuses: filters.statuses,
    partnerId: filters.partnerId ?? '',
    lenderSubmissionStatus: filters.lenderSubmissionStatus ?? '',
    query: filters.query ?? '',
    onlyListedCases: filters.onlyCases !== null,
    financingCaseIds: filters.onlyCases ?? [],
    limit: filters.limit,
    offset: filters.offset,
  };
}

/** The filters a message carries (the reverse of opsQueueRequestOf). */
export function opsQueueFiltersOf(request: ListOpsQueueRequest__Output): OpsQueueFilters {
  return {
    statuses: request.statuses,
    partnerId: request.partnerId || null,
    lenderSubmissionStatus: request.lenderSubmissionStatus || null,
    query: request.query || null,
    onlyCases: request.onlyListedCases ? request.financingCaseIds : null,
    limit: request.limit,
    offset: request.offset,
  };
}
