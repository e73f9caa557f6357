import { loadConfig, positiveIntegerVariable } from '@rental/config';
import { serviceVariables } from '@rental/service-host';

export const caseWorkflowVariables = {
  ...serviceVariables,
  /** How often the lender-submission worker looks for due submissions (it also wakes on each new one). */
  LENDER_SUBMISSION_POLL_MS: positiveIntegerVariable(2000),
};

export type CaseWorkflowConfig = ReturnType<typeof loadCaseWorkflowConfig>;

export function loadCaseWorkflowConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(caseWorkflowVariables, env);
}
