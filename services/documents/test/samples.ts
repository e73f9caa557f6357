/**
 * A document and a requested item as the domain's unit tests build them: every field set to a
 * plain value (a partner's pending upload, a pending document request for the partner), so a test
 * names only the fields its rule reads.
 */
import type { FinancingDocument, RequestItem } from '../src/domain/model';

export const sampleDocument = (overrides: Partial<FinancingDocument> = {}): FinancingDocument => ({
  id: 1,
  financingCaseId: 'C',
  partnerId: 'acme',
  originalName: 'a.pdf',
  mimeType: 'application/pdf',
  fileSize: 1,
  category: 'other',
  description: null,
  uploadedAt: '2026-01-01T00:00:00.000Z',
  uploadedBy: 'partner',
  reviewStatus: 'PENDING_REVIEW',
  objectKey: 'k',
  requestedItemId: null,
  supersededBy: null,
  rejectionReason: null,
  simulated: false,
  signed: false,
  internalOnly: false,
  ...overrides,
});

export const sampleRequestItem = (overrides: Partial<RequestItem> = {}): RequestItem => ({
  id: 1,
  itemType: 'document',
  financingCaseId: 'C',
  partnerId: 'acme',
  label: 'L',
  category: 'business_registration',
  status: 'pending',
  recipientType: 'service',
  targetAudience: 'partner',
  optional: false,
  internalOnly: false,
  customName: null,
  question: null,
  response: null,
  template: null,
  callbackRequestId: null,
  callbackStatus: null,
  requestedAt: '2026-01-01T00:00:00.000Z',
  dueAt: null,
  providedAt: null,
  transmittedToLenderAt: null,
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});
