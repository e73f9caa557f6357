export { startCaseWorkflow, CASE_WORKFLOW_SCHEMA } from './service';
export { loadCaseWorkflowConfig, caseWorkflowVariables } from './config';
