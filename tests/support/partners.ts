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

/**
 * A partner of its own (like acme) whose distribution hub (hub-<name>, connected) lists one SLA
 * file and answers its SLA list after `responseDelayMs`, for tests that need a slow hub.
 */
export async function partnerWithHub(name: string, responseDelayMs: number, stack: StackAddress = sharedStack()): Promise<OwnPartner & { slaFileId: string }> {
  const slug = name.toLowerCase();
  const slaFileId = `sla-${slug}`;
  const partner = await createTestPartner(stack, {
    overrides: { distributionHub: `hub-${slug}` },
    hubs: [
      { id: `hub-${slug}`, name: `Hub ${name}`, connected: true, contactEmail: null, responseDelayMs, slaFiles: [{ fileId: slaFileId, name, deleted: false }] },
    ],
  });
  return { partner, api: new ApiClient(stack.gatewayUrl, partner.key), slaFileId };
}
