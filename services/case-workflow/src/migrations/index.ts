import type { Migration } from '@rental/db';
import * as caseWorkflow from './0001_case_workflow';
import * as outboxRequestId from './0002_outbox_request_id';
import * as caseHistory from './0003_case_history';
import * as lendersEnvelopesAndCallbacks from './0004_lenders_envelopes_and_callbacks';
import * as customerLinks from './0006_customer_links_and_scheduler';
import * as traceContext from './0021_trace_context';
import * as supersededLenderSubmissions from './0022_superseded_lender_submissions';
import * as envelopeRequestsAndVoids from './0024_envelope_requests_and_voids';
import * as caseClocks from './0027_case_clocks';
import * as queueAndSearchIndexes from './0034_queue_and_search_indexes';

export const migrations: Record<string, Migration> = {
  '0001_case_workflow': caseWorkflow,
  '0002_outbox_request_id': outboxRequestId,
  '0003_case_history': caseHistory,
  '0004_lenders_envelopes_and_callbacks': lendersEnvelopesAndCallbacks,
  '0006_customer_links_and_scheduler': customerLinks,
  '0021_trace_context': traceContext,
  '0022_superseded_lender_submissions': supersededLenderSubmissions,
  '0024_envelope_requests_and_voids': envelopeRequestsAndVoids,
  '0027_case_clocks': caseClocks,
  '0034_queue_and_search_indexes': queueAndSearchIndexes,
};
