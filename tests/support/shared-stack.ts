import { ApiClient } from '@rental/testkit';

export const SHARED_STACK_VARIABLE = 'RENTAL_TEST_STACK';

export interface SharedStackAddress {
  gatewayUrl: string;
  databaseUrl: string;
  environment: string;
  portBase: number;
  controlUrl: string;
  /** One `<process>.log` per process, JSON lines. */
  logDirectory: string;
  identitySecret: string;
}

/** What a test helper needs to reach a stack: the shared one, or one a test boots itself (a Stack has these too). */
export type StackAddress = Pick<SharedStackAddress, 'gatewayUrl' | 'databaseUrl' | 'environment' | 'portBase' | 'controlUrl'>;

/** The stack every integration test shares (booted by globalSetup). */
export function sharedStack(): SharedStackAddress {
  const raw = process.env[SHARED_STACK_VARIABLE];
  if (!raw) throw new Error('the shared stack is not running (globalSetup did not run)');
  return JSON.parse(raw) as SharedStackAddress;
}

export function apiAs(key?: string): ApiClient {
  return new ApiClient(sharedStack().gatewayUrl, key);
}
