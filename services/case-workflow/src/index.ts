import { schemaOf } from '@rental/config';
import { Knex, openDatabase } from '@rental/db';
import type { Logger } from '@rental/logger';
import { migrations } from './migrations';

export { startCaseWorkflow } from './service';
export { loadCaseWorkflowConfig, caseWorkflowVariables } from './config';
export { seedLenders } from './data-access/lender-submission-repository';
/** For tests that migrate its schema step by step. */
export { migrations as caseWorkflowMigrations } from './migrations';

/** The case-workflow schema, migrated; for the seed command (lenders). */
export function openCaseWorkflowDatabase(url: string, log: Logger): Promise<Knex> {
  return openDatabase({ url, schema: schemaOf('case-workflow'), migrations, log });
}
/** The shared mailboxes start-esignature refuses, for the test that sends each through the API. */
export { GENERIC_MAILBOXES } from './domain/signing/esignature';
// The reads whose plans tests/case-workflow/query-plans.test.ts checks on a grown database.
export { CaseRepository } from './data-access/case-repository';
export { ClockRepository } from './data-access/clock-repository';
export { OpsReadsRepository } from './data-access/ops-reads-repository';
