import type { Migration } from '@rental/db';
import * as caseWorkflow from './0001_case_workflow';

export const migrations: Record<string, Migration> = {
  '0001_case_workflow': caseWorkflow,
};
