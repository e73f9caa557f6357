import { bootStack } from '@rental/testkit';
import { SHARED_STACK_VARIABLE, SharedStackAddress } from './shared-stack';

export default async function globalSetup(): Promise<void> {
  const stack = await bootStack();
  (globalThis as Record<string, unknown>).__rentalStack = stack;
  const address: SharedStackAddress = {
    gatewayUrl: stack.gatewayUrl,
    databaseUrl: stack.databaseUrl,
    environment: stack.environment,
    portBase: stack.portBase,
    controlUrl: stack.controlUrl,
    logDirectory: stack.logDirectory,
    identitySecret: stack.identitySecret,
  };
  // Workers start after this, so they inherit the variable.
  process.env[SHARED_STACK_VARIABLE] = JSON.stringify(address);
}
