import { z } from 'zod';
import { durationVariable, loadConfig, portVariable, positiveIntegerVariable, urlVariable } from '@rental/config';
import { serviceVariables } from '@rental/service-host';

export const caseWorkflowVariables = {
  ...serviceVariables,
  /** How often the lender-submission worker looks for due submissions (it also wakes on each new one). */
  LENDER_SUBMISSION_POLL_MS: positiveIntegerVariable(2000),
  /** Where customers, lenders and the signing provider reach the gateway; default http://127.0.0.1:<PORT>. */
  PUBLIC_BASE_URL: urlVariable(['http', 'https']).optional(),
  /** The gateway's port, for the default PUBLIC_BASE_URL. */
  PORT: portVariable(8080),
  CUSTOMER_LINK_TTL: durationVariable('30d'),
  SCHEDULER_TICK: durationVariable('30s'),
  REVIEW_REMINDER_AFTER: durationVariable('3d'),
  REVIEW_REMINDER_MAX: z.coerce.number({ message: 'must be a whole number' }).int('must be a whole number').min(0, 'must be 0 or more').default(2),
  REVIEW_EXPIRY_AFTER: durationVariable('14d'),
  DOCUMENT_OVERDUE_GRACE: durationVariable('7d'),
};

export type CaseWorkflowConfig = ReturnType<typeof loadCaseWorkflowConfig>;

export function loadCaseWorkflowConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(caseWorkflowVariables, env);
}
