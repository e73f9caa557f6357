import path from 'node:path';
import { loadProtoPackage } from '@rental/grpc';
import type { ProtoGrpcType as PricingPackage } from './generated/pricing';
import type { ProtoGrpcType as CaseWorkflowPackage } from './generated/case_workflow';
import type { ProtoGrpcType as DocumentsPackage } from './generated/documents';
import type { ProtoGrpcType as NotificationsPackage } from './generated/notifications';
import type { ProtoGrpcType as PartnerAccessPackage } from './generated/partner_access';

export * from './events';
export * from './financing';
export * from './document-categories';
export * from './problems';
export * from './customer';
export * from './ops-queue';
export * from './requested-items';
export * from './partner-file';
export * from './api-key-limits';
export * from './api-key-fields';
export * from './quote-states';

/** The folder that holds rental/<service>/v1/*.proto, next to src/ and dist/. */
export const PROTO_ROOT = path.resolve(__dirname, '..');

const loaded = new Map<string, unknown>();

/**
 * Parses a contract once per process: a service builds several clients and servers of the same
 * contract, and parsing the .proto files is a good part of its start.
 */
function load<T>(relativeFile: string): T {
  if (!loaded.has(relativeFile)) loaded.set(relativeFile, loadProtoPackage<T>(relativeFile, [PROTO_ROOT]));
  return loaded.get(relativeFile) as T;
}

export function loadPricingPackage(): PricingPackage['rental']['pricing']['v1'] {
  return load<PricingPackage>('rental/pricing/v1/pricing.proto').rental.pricing.v1;
}

export function loadCaseWorkflowPackage(): CaseWorkflowPackage['rental']['case_workflow']['v1'] {
  return load<CaseWorkflowPackage>('rental/case_workflow/v1/case_workflow.proto').rental.case_workflow.v1;
}

export function loadDocumentsPackage(): DocumentsPackage['rental']['documents']['v1'] {
  return load<DocumentsPackage>('rental/documents/v1/documents.proto').rental.documents.v1;
}

/** The partner API's webhook endpoint operations, for the partner portal (served by notifications). */
export function loadNotificationsPackage(): NotificationsPackage['rental']['notifications']['v1'] {
  return load<NotificationsPackage>('rental/notifications/v1/notifications.proto').rental.notifications.v1;
}

/** The gateway's partners, API keys and partner audit (served by the gateway process). */
export function loadPartnerAccessPackage(): PartnerAccessPackage['rental']['partner_access']['v1'] {
  return load<PartnerAccessPackage>('rental/partner_access/v1/partner_access.proto').rental.partner_access.v1;
}

/** Messages more than one contract carries (rental/common/v1). */
export type * as common from './generated/rental/common/v1';
export type * as pricing from './generated/rental/pricing/v1';
export type * as caseWorkflow from './generated/rental/case_workflow/v1';
export type * as documents from './generated/rental/documents/v1';
export type * as notifications from './generated/rental/notifications/v1';
export type * as partnerAccess from './generated/rental/partner_access/v1';
