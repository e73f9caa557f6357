import { runUntilSignal } from '@rental/http';
import { loadCaseWorkflowConfig } from './config';
import { startCaseWorkflow } from './service';

runUntilSignal('case-workflow', () => startCaseWorkflow(loadCaseWorkflowConfig()));
