import { actAsInternalCaller } from '@rental/testkit';
import { SHARED_STACK_VARIABLE, sharedStack } from './shared-stack';

// Each test file calls the shared stack's gRPC ports as a signed internal caller (a file that
// boots its own stack switches to that stack's secret in bootStack).
if (process.env[SHARED_STACK_VARIABLE]) actAsInternalCaller(sharedStack().identitySecret);
