import type { Migration } from '@rental/db';
import * as documents from './0001_documents';
import * as dueDates from './0002_due_dates';
import * as providerSignedContract from './0004_provider_signed_contract';
import * as callbackNotes from './0005_callback_notes';
import * as overdueEscalation from './0006_overdue_escalation';
import * as requestItemCreationKeys from './0024_request_item_creation_keys';

export const migrations: Record<string, Migration> = {
  '0001_documents': documents,
  '0002_due_dates': dueDates,
  '0004_provider_signed_contract': providerSignedContract,
  '0005_callback_notes': callbackNotes,
  '0006_overdue_escalation': overdueEscalation,
  '0024_request_item_creation_keys': requestItemCreationKeys,
};
