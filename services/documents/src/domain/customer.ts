import { gone, notFound, validationFailed } from '@rental/problem';
import { DocumentsDependencies, UploadForm, customerFormViolations, storeUpload } from './documents';
import { FinancingDocument, RequestItem, acceptsUpload } from './model';
import type { CustomerLinkAccess } from './ports';

// The customer's side of the documents: uploads and answers for customer-audience items, reached
// with the link token that case-workflow keeps; answers come through case-workflow, which opens
// the link and answers with the customer view. A customer's file is customer-provided, so the
// visibility rule keeps it from the partner.

/** 404 for a token that never was, 410 for one that stopped working. */
export async function openCustomerLink(deps: Pick<DocumentsDependencies, 'cases'>, token: string, requestId?: string): Promise<CustomerLinkAccess> {
  const access = await deps.cases.resolveCustomerLink(token, { requestId });
  if (access.state === 'unknown') throw notFound('customer.link_not_found', 'No offer exists at this link.');
  if (access.state === 'expired')
    throw gone(
      'customer.link_expired',
      'This link no longer works: it expired, a newer link replaced it, or the case was canceled. Ask your dealer for a new link.',
    );
  return access;
}

const isCustomerItemOf = (item: RequestItem | undefined, access: Pick<CustomerLinkAccess, 'financingCaseId'>): item is RequestItem =>
  Boolean(item && item.financingCaseId === access.financingCaseId && item.targetAudience === 'customer' && !item.internalOnly);

/** POST /customer/v1/quotes/{token}/documents: the file answers a customer-audience request of the link's case. */
export async function uploadCustomerDocument(deps: DocumentsDependencies, access: CustomerLinkAccess, form: UploadForm): Promise<FinancingDocument> {
  const item =
    form.requestedDocumentId && /^[1-9][0-9]{0,9}$/.test(form.requestedDocumentId) ? await deps.items.find(Number(form.requestedDocumentId)) : undefined;
  // The customer does not know categories: the request's own is used unless one is sent.
  const completed: UploadForm = form.category ? form : { ...form, category: isCustomerItemOf(item, access) ? item.category : 'other' };
  const violations = customerFormViolations(completed);
  if (violations.length > 0) throw validationFailed(violations);
  if (!isCustomerItemOf(item, access) || !acceptsUpload(item)) {
    throw notFound('document_request.not_found', `No open requested document ${form.requestedDocumentId} for the customer on this offer.`);
  }
  return storeUpload(deps, { financingCaseId: access.financingCaseId, partnerId: access.partnerId, form: completed, item, uploadedBy: 'customer' });
}

/**
 * The customer's answer to a pending customer-audience question of the case whose link
 * case-workflow opened (POST /customer/v1/quotes/{token}/information/{id}/respond and the page's form).
 */
export async function answerCustomerInformation(
  deps: Pick<DocumentsDependencies, 'items' | 'now'>,
  financingCaseId: string,
  itemId: number,
  response: string,
): Promise<RequestItem> {
  const item = await deps.items.find(itemId);
  if (!isCustomerItemOf(item, { financingCaseId }) || item.itemType !== 'information')
    throw notFound('document_request.not_found', `No information request ${itemId} for the customer on this offer.`);
  const answered = item.status === 'pending' ? await deps.items.respond(item.id, response, deps.now().toISOString()) : undefined;
  if (!answered) {
    const message = `The information request ${item.id} is ${item.status}; only a pending request can be answered.`;
    throw validationFailed([{ propertyPath: '', code: 'document_request.not_pending', message }], message);
  }
  return answered;
}

/** The customer-audience items of a case (case-workflow's customer view). */
export function listCustomerItems(deps: Pick<DocumentsDependencies, 'items'>, financingCaseId: string): Promise<RequestItem[]> {
  return deps.items.listForCustomer(financingCaseId);
}
