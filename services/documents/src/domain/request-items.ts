import { Readable } from 'node:stream';
import { type ProblemCode, choiceViolation, invalidInput, notFound, requiredViolation, ruleViolation, validationFailed, Violation } from '@rental/problem';
import { DOCUMENT_CATEGORIES, DocumentCategory, FILL_AND_RETURN_CATEGORIES, FINANCING_STAGE_CATEGORIES, isDocumentCategory } from '@rental/proto';
import { INFORMATION_CATEGORY } from './categories';
import { requireCase, requireCaseOfPartner } from './case-scope';
import type { DocumentsDependencies } from './documents';
import { FinancingDocument, ITEM_TYPES, ItemType, RequestItem, TARGET_AUDIENCES, TargetAudience, TemplateFile, isVisibleItem } from './model';
import { MAX_UPLOAD_BYTES, StoredMimeType, detectFileType } from './file-type';
import { sanitizeOriginalName } from './filename';
import { renderTextPdf } from './pdf';
import type { CallerContext, CaseItemsJson, NewItem } from './ports';
import { ObjectToStore, storeThenRecord } from './storage-consistency';

const MAX_LABEL_LENGTH = 255;
const MAX_TEXT_LENGTH = 10_000;

/** An item with the files that answered it, for the derived fields of the item shape. */
export interface RequestItemView {
  item: RequestItem;
  responses: FinancingDocument[];
}

export interface NewItemInput {
  label: string;
  category: string;
  question: string;
  optional: boolean;
  targetAudience: string;
  /** ISO 8601, or empty for no due date. */
  dueAt: string;
  /** The item's own type when one call creates several types; empty: the call's type. */
  itemType?: string;
  /** fill_and_return: the form an operator gives; without it a template is generated. */
  template?: { content: Buffer; fileName: string };
}

const ALLOWED_CATEGORIES: Record<Exclude<ItemType, 'information'>, readonly DocumentCategory[]> = {
  document: FINANCING_STAGE_CATEGORIES,
  fill_and_return: FILL_AND_RETURN_CATEGORIES,
};

function itemViolations(defaultType: string, items: NewItemInput[]): Violation[] {
  if (items.length === 0) return [{ propertyPath: 'items', code: 'validation.too_small', message: 'At least one item is required.' }];
  return items.flatMap((item, index): Violation[] => {
    const at = (field: string) => `items[${index}].${field}`;
    const violations: Violation[] = [];
    const itemType = (item.itemType || defaultType) as ItemType;
    if (!(ITEM_TYPES as readonly string[]).includes(itemType)) return [choiceViolation(at('type'), ITEM_TYPES)];
    if (itemType === 'information') {
      if (!item.question.trim()) violations.push(requiredViolation(at('question')));
      else if (item.question.length > MAX_TEXT_LENGTH)
        violations.push({
          propertyPath: at('question'),
          code: 'validation.too_big',
          message: `This value is too long; at most ${MAX_TEXT_LENGTH} characters.`,
        });
      if (item.category && !isDocumentCategory(item.category)) violations.push(choiceViolation(at('category'), DOCUMENT_CATEGORIES));
    } else {
      if (!item.label.trim()) violations.push(requiredViolation(at('label')));
      if (!item.category) violations.push(requiredViolation(at('category')));
      else if (!ALLOWED_CATEGORIES[itemType].includes(item.category as DocumentCategory))
        violations.push(choiceViolation(at('category'), ALLOWED_CATEGORIES[itemType]));
    }
    if (item.label.length > MAX_LABEL_LENGTH)
      violations.push({ propertyPath: at('label'), code: 'validation.too_big', message: `This value is too long; at most ${MAX_LABEL_LENGTH} characters.` });
    if (item.targetAudience && !(TARGET_AUDIENCES as readonly string[]).includes(item.targetAudience))
      violations.push(choiceViolation(at('targetAudience'), TARGET_AUDIENCES));
    if (item.template && (itemType !== 'fill_and_return' || !detectFileType(item.template.content) || item.template.content.length > MAX_UPLOAD_BYTES)) {
      violations.push({
        propertyPath: at('template'),
        code: 'validation.file_type',
        message: 'A template is a PDF, PNG or JPEG file of at most 10 MB, and only for fill_and_return items.',
      });
    }
    if (item.dueAt && Number.isNaN(Date.parse(item.dueAt)))
      violations.push({ propertyPath: at('dueAt'), code: 'validation.format', message: 'This value is not a valid ISO 8601 date-time.' });
    return violations;
  });
}

/** A 422 about the item as a whole: the violation has an empty propertyPath. */
function itemRule(code: ProblemCode, message: string) {
  return ruleViolation(code, message, [{ propertyPath: '', code, message }]);
}

function labelOf(itemType: ItemType, item: NewItemInput): string {
  if (itemType !== 'information' || item.label.trim()) return item.label.trim();
  const question = item.question.trim();
  return question.length > MAX_LABEL_LENGTH ? `${question.slice(0, MAX_LABEL_LENGTH - 1)}…` : question;
}

function givenTemplate(given: { content: Buffer; fileName: string }, key: string): { object: ObjectToStore; template: TemplateFile } {
  const mimeType = detectFileType(given.content) as StoredMimeType;
  const fileName = sanitizeOriginalName(given.fileName, mimeType);
  return {
    object: { key, source: { size: given.content.length, mimeType, open: () => Readable.from([given.content]) } },
    template: { objectKey: key, fileName, fileSize: given.content.length, mimeType, originalName: fileName },
  };
}

async function templateFor(financingCaseId: string, label: string, key: string): Promise<{ object: ObjectToStore; template: TemplateFile }> {
  const pdf = await renderTextPdf({
    title: label,
    subject: `Financing case ${financingCaseId}`,
    lines: [`Financing case ${financingCaseId}`, 'Please fill in this form, sign it and upload it as the answer to this request.'],
  });
  const slug =
    label
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || 'template';
  return {
    object: { key, source: { size: pdf.length, mimeType: 'application/pdf', open: () => Readable.from([pdf]) } },
    template: { objectKey: key, fileName: `${slug}.pdf`, fileSize: pdf.length, mimeType: 'application/pdf', originalName: `${slug}.pdf` },
  };
}

/**
 * Creates requested items of one type (sandbox scenarios and reviewers): requested documents
 * of financing-stage categories, fill-and-return forms with a generated template, or
 * information questions. Items are partner-visible unless their audience is the operator.
 */
export async function createRequestItems(
  deps: DocumentsDependencies,
  input: { financingCaseId: string; itemType: string; items: NewItemInput[]; creationKey?: string | null; context: CallerContext },
): Promise<RequestItemView[]> {
  const mixed = input.items.length > 0 && input.items.every((item) => item.itemType);
  if (!mixed && !(ITEM_TYPES as readonly string[]).includes(input.itemType)) {
    throw invalidInput('document_request.unknown_type', `item_type must be one of ${ITEM_TYPES.join(', ')}.`);
  }
  const violations = itemViolations(input.itemType, input.items);
  if (violations.length > 0) throw validationFailed(violations);
  const access = await requireCase(deps.cases, input.financingCaseId, input.context);
  const requestedAt = deps.now().toISOString();
  const objects: ObjectToStore[] = [];
  const newItems: NewItem[] = [];
  for (const item of input.items) {
    const itemType = (item.itemType || input.itemType) as ItemType;
    const label = labelOf(itemType, item);
    const targetAudience = (item.targetAudience || 'partner') as TargetAudience;
    let template: TemplateFile | null = null;
    if (itemType === 'fill_and_return') {
      const key = deps.objectKey('templates', input.financingCaseId);
      const generated = item.template ? givenTemplate(item.template, key) : await templateFor(input.financingCaseId, label, key);
      objects.push(generated.object);
      template = generated.template;
    }
    newItems.push({
      itemType,
      financingCaseId: input.financingCaseId,
      partnerId: access.partnerId,
      label,
      category: itemType === 'information' ? item.category || INFORMATION_CATEGORY : item.category,
      optional: item.optional,
      targetAudience,
      internalOnly: targetAudience === 'operator',
      question: itemType === 'information' ? item.question.trim() : null,
      template,
      requestedAt,
      dueAt: item.dueAt ? new Date(item.dueAt).toISOString() : null,
    });
  }
  // A repeated creation key inserts nothing: the templates just written are removed again.
  const created = await storeThenRecord(deps, objects, async () => {
    const { items, repeated } = await deps.items.create(newItems, input.creationKey || null);
    return { outcome: repeated ? 'repeated' : 'stored', items };
  });
  return created.items.map((item) => ({ item, responses: [] }));
}

async function withResponses(deps: Pick<DocumentsDependencies, 'documents'>, items: RequestItem[]): Promise<RequestItemView[]> {
  const documents = await deps.documents.listByItems(items.map((item) => item.id));
  return items.map((item) => ({ item, responses: documents.filter((document) => document.requestedItemId === item.id) }));
}

/** The items of the partner's cases it may see, oldest first, with the files that answered them. */
async function visibleItems(
  deps: Pick<DocumentsDependencies, 'documents' | 'items'>,
  financingCaseIds: string[],
  partnerId: string,
): Promise<RequestItemView[]> {
  const items = await deps.items.listByCasesOfPartner(financingCaseIds, partnerId);
  return withResponses(deps, items.filter(isVisibleItem));
}

/** The partner-visible requested items of a case, oldest first; operator-internal items are left out. */
export async function listRequestItems(
  deps: Pick<DocumentsDependencies, 'cases' | 'documents' | 'items'>,
  input: { financingCaseId: string; partnerId: string; requestId?: string },
): Promise<RequestItemView[]> {
  await requireCaseOfPartner(deps.cases, input.financingCaseId, input.partnerId, input.requestId);
  return visibleItems(deps, [input.financingCaseId], input.partnerId);
}

/** The same list for an internal caller (case-workflow), scoped by the case's owner. */
export async function listRequestItemsOfCase(
  deps: Pick<DocumentsDependencies, 'cases' | 'documents' | 'items'>,
  input: { financingCaseId: string; context: CallerContext },
): Promise<RequestItemView[]> {
  const access = await requireCase(deps.cases, input.financingCaseId, input.context);
  return visibleItems(deps, [input.financingCaseId], access.partnerId);
}

export const MAX_CASES_PER_LIST = 100;

/** The partner a call about several cases is scoped to: it must be given, and the cases be few. */
function casesCaller(input: { financingCaseIds: string[]; context: CallerContext }): string {
  const { partnerId } = input.context;
  if (!partnerId) throw invalidInput('document_request.partner_required', 'The partner the cases belong to must be given with the call.');
  if (input.financingCaseIds.length > MAX_CASES_PER_LIST)
    throw invalidInput('document_request.too_many_cases', `At most ${MAX_CASES_PER_LIST} cases per call.`);
  return partnerId;
}

/**
 * The same lists for several cases of the calling partner (a page of case-workflow's case list)
 * in two reads, instead of one call per case that asks case-workflow back about the case: only
 * items kept for the caller's partner are answered, so an unknown or foreign case has none.
 */
export async function listRequestItemsOfCases(
  deps: Pick<DocumentsDependencies, 'documents' | 'items'>,
  input: { financingCaseIds: string[]; context: CallerContext },
): Promise<Map<string, RequestItemView[]>> {
  const views = await visibleItems(deps, [...new Set(input.financingCaseIds)], casesCaller(input));
  const byCase = new Map<string, RequestItemView[]>(input.financingCaseIds.map((id) => [id, []]));
  for (const view of views) byCase.get(view.item.financingCaseId)?.push(view);
  return byCase;
}

/** The same lists, under the same scope, as JSON the case list splices into its page; a case without items is left out. */
export async function listRequestItemsJsonOfCases(
  deps: Pick<DocumentsDependencies, 'items'>,
  input: { financingCaseIds: string[]; context: CallerContext },
): Promise<CaseItemsJson[]> {
  return deps.items.listJsonByCasesOfPartner([...new Set(input.financingCaseIds)], casesCaller(input));
}

async function visibleItemOfCase(
  deps: Pick<DocumentsDependencies, 'cases' | 'items'>,
  input: { financingCaseId: string; partnerId: string; requestId?: string; itemId: number; itemType: ItemType },
): Promise<RequestItem> {
  await requireCaseOfPartner(deps.cases, input.financingCaseId, input.partnerId, input.requestId);
  const item = await deps.items.find(input.itemId);
  if (
    !item ||
    item.financingCaseId !== input.financingCaseId ||
    item.partnerId !== input.partnerId ||
    item.itemType !== input.itemType ||
    !isVisibleItem(item)
  ) {
    throw notFound('document_request.not_found', `No ${input.itemType.replace(/_/g, '-')} request ${input.itemId} on this financing case.`);
  }
  return item;
}

/** POST .../information/{id}/respond: a pending question gets its answer and becomes provided. */
export async function respondToInformation(
  deps: Pick<DocumentsDependencies, 'cases' | 'items' | 'documents' | 'now'>,
  input: { financingCaseId: string; partnerId: string; requestId?: string; itemId: number; response: string | null },
): Promise<RequestItemView> {
  const item = await visibleItemOfCase(deps, { ...input, itemType: 'information' });
  if (item.status !== 'pending')
    throw itemRule('document_request.not_pending', `The information request ${item.id} is ${item.status}; only a pending request can be answered.`);
  const answered = await deps.items.respond(item.id, input.response, deps.now().toISOString());
  if (!answered) throw itemRule('document_request.not_pending', `The information request ${item.id} was answered or closed meanwhile.`);
  return { item: answered, responses: [] };
}

/**
 * POST .../{type}/{id}/not-available: only an optional, partner-visible, pending item of the
 * case; hidden and unknown items are 404, a required or no longer pending one 422.
 */
export async function declareNotAvailable(
  deps: Pick<DocumentsDependencies, 'cases' | 'items' | 'documents' | 'now'>,
  input: { financingCaseId: string; partnerId: string; requestId?: string; itemId: number; itemType: ItemType },
): Promise<RequestItemView> {
  const item = await visibleItemOfCase(deps, input);
  if (!item.optional)
    throw itemRule('document_request.not_optional', `The request ${item.id} is required; only an optional request can be declared not available.`);
  if (item.status !== 'pending')
    throw itemRule('document_request.not_pending', `The request ${item.id} is ${item.status}; only a pending request can be declared not available.`);
  const updated = await deps.items.markNotAvailable(item.id, deps.now().toISOString());
  if (!updated) throw itemRule('document_request.not_pending', `The request ${item.id} was answered or closed meanwhile.`);
  const [view] = await withResponses(deps, [updated]);
  return view as RequestItemView;
}

/** GET the template of a fill-and-return request of the partner's case. */
export async function openTemplate(
  deps: Pick<DocumentsDependencies, 'cases' | 'items' | 'storage'>,
  input: { financingCaseId: string; partnerId: string; requestId?: string; templateId: number },
): Promise<{ template: TemplateFile; content: Readable }> {
  const item = await visibleItemOfCase(deps, { ...input, itemId: input.templateId, itemType: 'fill_and_return' });
  if (!item.template) throw notFound('document_request.template_not_found', `The fill-and-return request ${item.id} has no template.`);
  return { template: item.template, content: await deps.storage.get(item.template.objectKey) };
}
