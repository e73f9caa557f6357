import { type ProblemCode, isDomainError, ruleViolation } from '@rental/problem';
import { QUOTE_MOVES } from '@rental/proto';
import type { BackofficeDependencies, CaseRecord, ItemReference, NewRequest, PartnerMail, QueueEntry } from './ports';
import { actorOf, requireRole } from './roles';
import type { Operator, OperatorRole } from './model';

/**
 * The approval team's use cases: each composes case-workflow and documents, which keep the
 * rules of their data. The route checked the operation's least role before the body was read;
 * a use case asks for more where the body decides (the approver's moves).
 */

const rule = (code: ProblemCode, message: string, propertyPath = '') => ruleViolation(code, message, [{ propertyPath, code, message }]);

/** The moves an approver makes; every other move of the table a reviewer may make. */
const APPROVER_TRANSITIONS: readonly string[] = ['finance_accept', 'finance_reject', 'finance_resume', 'finance_needs_help', 'start_manual_finance_review'];

/** The least role a move needs (the route already asked for reviewer). */
const moveRole = (move: string): OperatorRole => (APPROVER_TRANSITIONS.includes(move) ? 'approver' : 'reviewer');

/** The moves of the quote table an operator may ask for (cancel has its own operation), each with the least role it needs. */
export const OPERATOR_MOVES = QUOTE_MOVES.filter((move) => move !== 'cancel').map((move) => ({ move, role: moveRole(move) }));

export interface QueueQuery {
  statuses: string[];
  partnerId: string | null;
  lenderSubmissionStatus: string | null;
  overdue: boolean;
  query: string | null;
  limit: number;
  offset: number;
}

export interface QueueRow extends QueueEntry {
  partnerName: string | null;
  openItems: number;
  overdueItems: number;
}

async function partnerNames(deps: BackofficeDependencies, partnerIds: string[]): Promise<Map<string, string | null>> {
  const unique = [...new Set(partnerIds)];
  const names = await Promise.all(unique.map((id) => deps.partners.nameOf(id)));
  return new Map(unique.map((id, index) => [id, names[index] ?? null]));
}

/** GET /ops/v1/cases: the queue, longest waiting first. */
export async function queue(deps: BackofficeDependencies, input: QueueQuery): Promise<QueueRow[]> {
  const onlyCases = input.overdue ? (await deps.documents.openItemCounts([], true)).overdueCaseIds : null;
  const entries = await deps.cases.queue({ ...input, onlyCases });
  if (entries.length === 0) return [];
  const [{ counts }, names] = await Promise.all([
    deps.documents.openItemCounts(
      entries.map((entry) => entry.id),
      false,
    ),
    partnerNames(
      deps,
      entries.map((entry) => entry.partnerId),
    ),
  ]);
  return entries.map((entry) => ({
    ...entry,
    partnerName: names.get(entry.partnerId) ?? null,
    openItems: counts.get(entry.id)?.openItems ?? 0,
    overdueItems: counts.get(entry.id)?.overdueItems ?? 0,
  }));
}

/** The case page: case-workflow's view with the partner's name, every item and every document. */
async function caseDetail(deps: BackofficeDependencies, record: CaseRecord): Promise<Record<string, unknown>> {
  const [files, names] = await Promise.all([deps.documents.caseFiles(record.financingCaseId), partnerNames(deps, [record.partnerId])]);
  const { history, ...rest } = record.view;
  return { ...rest, partnerName: names.get(record.partnerId) ?? null, requestedItems: files.items, documents: files.documents, history };
}

/** GET /ops/v1/cases/{id} */
export async function showCase(deps: BackofficeDependencies, financingCaseId: string): Promise<Record<string, unknown>> {
  return caseDetail(deps, await deps.cases.caseRecord(financingCaseId));
}

/** POST /ops/v1/cases/{id}/transitions */
export async function transition(
  deps: BackofficeDependencies,
  operator: Operator,
  input: { financingCaseId: string; transition: string; reason: string | null },
): Promise<Record<string, unknown>> {
  requireRole(operator, moveRole(input.transition));
  return caseDetail(
    deps,
    await deps.cases.moveQuote(input.financingCaseId, { kind: 'transition', transition: input.transition }, input.reason, actorOf(operator)),
  );
}

/** A move of its own operation, which always carries the operator's reason. */
const reasonedMove =
  (kind: 'override' | 'cancel') =>
  async (deps: BackofficeDependencies, operator: Operator, input: { financingCaseId: string; reason: string }): Promise<Record<string, unknown>> =>
    caseDetail(deps, await deps.cases.moveQuote(input.financingCaseId, { kind }, input.reason, actorOf(operator)));

/** POST /ops/v1/cases/{id}/override: finance_rejected → finance_accepted, with the reason. */
export const override = reasonedMove('override');

/** POST /ops/v1/cases/{id}/cancel: the approval team's cancel (documents closes open callback requests on its event). */
export const cancel = reasonedMove('cancel');

/** POST /ops/v1/cases/{id}/requests: every item in one call, so a bad one leaves none behind. */
export async function createRequests(
  deps: BackofficeDependencies,
  operator: Operator,
  input: { financingCaseId: string; items: (Omit<NewRequest, 'dueAt'> & { dueAt: string | null })[] },
): Promise<Record<string, unknown>[]> {
  const defaultDue = new Date(deps.now().getTime() + deps.documentDueAfterMs).toISOString();
  const created = await deps.documents.createRequests(
    input.financingCaseId,
    input.items.map((item) => ({ ...item, dueAt: item.dueAt ?? defaultDue })),
  );
  await deps.cases.recordHistory(
    input.financingCaseId,
    'request_items',
    null,
    {
      items: created.map((item) => ({ type: item.type, id: item.id, label: item.label, targetAudience: item.targetAudience, dueAt: item.dueAt })),
    },
    actorOf(operator),
  );
  return created;
}

/** The partner's mail about a rejected document: what was rejected, why, and that the request is open again. */
function documentRejectedMail(
  reviewed: { financingCaseId: string; documentId: number; originalName: string; itemLabel: string | null },
  reason: string | null,
): PartnerMail {
  const lines = [
    `The approval team rejected the document ${reviewed.originalName} (document ${reviewed.documentId}) of financing case ${reviewed.financingCaseId}.`,
    reason ? `Reason: ${reason}` : 'No reason was given.',
    reviewed.itemLabel ? `The request "${reviewed.itemLabel}" is open again: please upload a new document.` : 'Please upload a new document.',
  ];
  return { kind: 'document_rejected', subject: `Financing case ${reviewed.financingCaseId}: document rejected`, text: lines.join('\n') };
}

/** POST /ops/v1/documents/{id}/review */
export async function reviewDocument(
  deps: BackofficeDependencies,
  operator: Operator,
  input: { documentId: number; status: 'VERIFIED' | 'REJECTED'; reason: string | null },
): Promise<Record<string, unknown>> {
  const reviewed = await deps.documents.review(input.documentId, input.status, input.reason);
  const mail = input.status === 'REJECTED' ? documentRejectedMail(reviewed, input.reason) : undefined;
  await deps.cases.recordHistory(
    reviewed.financingCaseId,
    'document_review',
    input.reason,
    { documentId: reviewed.documentId, status: input.status, itemId: reviewed.itemId },
    actorOf(operator),
    mail,
  );
  return showCase(deps, reviewed.financingCaseId);
}

/** GET /ops/v1/documents/{id}/download */
export function downloadDocument(deps: BackofficeDependencies, documentId: number) {
  return deps.documents.open(documentId);
}

/**
 * POST /ops/v1/cases/{id}/transmit: the verified documents and answers go to the lender; only
 * once it took them are the items sent. A case without a lender reference has nobody to send to.
 */
export async function transmit(
  deps: BackofficeDependencies,
  operator: Operator,
  input: { financingCaseId: string; items: ItemReference[] },
): Promise<Record<string, unknown>> {
  const record = await deps.cases.caseRecord(input.financingCaseId);
  if (!record.view.quote.financingNumber)
    throw rule('ops.no_lender_reference', 'The case has no lender reference (financingNumber) yet; nothing can be transmitted to the lender.');
  const items = await deps.documents.collectTransmission(input.financingCaseId, input.items);
  await deps.lender.sendAttachments(input.financingCaseId, items, actorOf(operator));
  await deps.documents.markTransmitted(input.financingCaseId, input.items);
  await deps.cases.recordHistory(input.financingCaseId, 'transmit', null, { items: input.items }, actorOf(operator));
  return showCase(deps, input.financingCaseId);
}

/** POST /ops/v1/cases/{id}/resubmit: only when the last lender submission failed and no retry of it is on its way to the lender. */
export async function resubmit(deps: BackofficeDependencies, operator: Operator, financingCaseId: string): Promise<Record<string, unknown>> {
  const record = await deps.cases.caseRecord(financingCaseId);
  const last = record.view.lenderSubmissions.at(-1);
  if (!last || last.status !== 'failed')
    throw rule('ops.resubmit_not_applicable', `The last lender submission is ${last?.status ?? 'missing'}; only a failed one can be resubmitted.`);
  try {
    await deps.lender.resubmit(financingCaseId, actorOf(operator));
  } catch (error) {
    // case-workflow decides under the case's lock: a failed submission whose retry is on its way to the lender is not resubmittable either.
    if (isDomainError(error) && error.code === 'lender.not_failed') throw rule('ops.resubmit_not_applicable', error.detail);
    throw error;
  }
  return showCase(deps, financingCaseId);
}

/** POST /ops/v1/cases/{id}/callback-requests */
export async function createCallbackRequest(
  deps: BackofficeDependencies,
  operator: Operator,
  input: { financingCaseId: string; items: ItemReference[]; note: string | null },
) {
  const created = await deps.documents.createCallbackRequest(input.financingCaseId, input.items, input.note);
  await deps.cases.recordHistory(
    input.financingCaseId,
    'callback_request',
    input.note,
    { callbackRequestId: created.id, items: created.items },
    actorOf(operator),
  );
  return created;
}

/** POST /ops/v1/callback-requests/{id}/close */
export async function closeCallbackRequest(deps: BackofficeDependencies, operator: Operator, id: number): Promise<Record<string, unknown>> {
  const closed = await deps.documents.closeCallbackRequest(id);
  await deps.cases.recordHistory(closed.financingCaseId, 'callback_request_closed', null, { callbackRequestId: closed.id }, actorOf(operator));
  return showCase(deps, closed.financingCaseId);
}

/** POST /ops/v1/cases/{id}/notes: an internal note, kept in the history only. */
export async function addNote(deps: BackofficeDependencies, operator: Operator, input: { financingCaseId: string; text: string }) {
  await deps.cases.recordHistory(input.financingCaseId, 'note', null, { text: input.text }, actorOf(operator));
  return { financingCaseId: input.financingCaseId, text: input.text, createdAt: deps.now().toISOString(), author: actorOf(operator) };
}

/** POST /ops/v1/contracts/{id}/transitions */
export async function moveContract(
  deps: BackofficeDependencies,
  operator: Operator,
  input: { contractId: string; to: string },
): Promise<Record<string, unknown>> {
  return caseDetail(deps, await deps.cases.moveContract(input.contractId, input.to, null, actorOf(operator)));
}
