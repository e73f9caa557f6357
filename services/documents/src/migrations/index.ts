import type { Migration } from '@rental/db';
import * as documents from './0001_documents';
import * as dueDates from './0002_due_dates';
import * as overdueEscalation from './0006_customer17_overdue_escalation';

export const migrations: Record<string, Migration> = {
  '0001_documents': documents,
  '0002_due_dates': dueDates,
  '0006_customer17_overdue_escalation': overdueEscalation,
};
