import { ApiClient, TestPartner, createTestPartner } from '@rental/testkit';
import { StackAddress, sharedStack } from './shared-stack';

/** A partner of its own (like acme), so a test's data is seen by no other test, and a client with its key. */
export interface OwnPartner {
  partner: TestPartner;
  api: ApiClient;
}

export async function ownPartner(stack: StackAddress = sharedStack()): Promise<OwnPartner> {
  const partner = await createTestPartner(stack, { like: 'acme' });
  return { partner, api: new ApiClient(stack.gatewayUrl, partner.key) };
}
