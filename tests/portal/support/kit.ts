import { ApiClient, TestPartner, createTestPartner } from '@rental/testkit';
import { DEMO_SEED_FILE, readSeedFile } from '@rental/stack/fixture';
import { BearerClient, clientCredentialsToken } from '../../support/oidc';
import { StackAddress, sharedStack } from '../../support/shared-stack';

export { expectProblem, expectViolations } from '../../case-workflow/support/kit';
export { sharedStack };

export type PortalRole = 'viewer' | 'developer' | 'admin';
export type PartnerUser = TestPartner['users'][number];

/** The user of a partner whose highest role is `role` (acme: Vic views, Dieter develops, Ada administers). */
export function userWith(users: PartnerUser[], role: PortalRole): PartnerUser {
  const user = users.find((candidate) => candidate.roles.at(-1) === role);
  if (!user) throw new Error(`no user with ${role}`);
  return user;
}

export const fixtureUsers = (partnerId: string): PartnerUser[] =>
  readSeedFile(DEMO_SEED_FILE).partners.find((partner) => partner.id === partnerId)?.users ?? [];

export async function portalDiscovery(stack: Pick<StackAddress, 'gatewayUrl'> = sharedStack()): Promise<{ issuer: string; token_endpoint: string }> {
  const config = (await (await fetch(`${stack.gatewayUrl}/portal/v1/session-config`)).json()) as { issuer: string };
  return (await (await fetch(`${config.issuer}/.well-known/openid-configuration`)).json()) as never;
}

/** A partner user's token by client credentials, as a partner's program gets one. */
export const clientToken = (clientId: string, clientSecret: string, stack: Pick<StackAddress, 'gatewayUrl'> = sharedStack()) =>
  clientCredentialsToken(`${stack.gatewayUrl}/portal/v1/session-config`, clientId, clientSecret);

/** The portal as a partner user (or nobody, with no token) calls it through the gateway. */
export class Portal extends BearerClient {
  constructor(token: string | null, stack: Pick<StackAddress, 'gatewayUrl'> = sharedStack()) {
    super(token, stack.gatewayUrl);
  }

  static async as(user: PartnerUser, stack: Pick<StackAddress, 'gatewayUrl'> = sharedStack()): Promise<Portal> {
    return new Portal(await clientToken(user.clientId, user.clientSecret, stack), stack);
  }
}

/** A partner of its own (acme's conditions and users under new ids), with the portal as each of its users. */
export async function portalPartner(
  stack: StackAddress = sharedStack(),
): Promise<{ partner: TestPartner; viewer: Portal; developer: Portal; admin: Portal; api: ApiClient }> {
  const partner = await createTestPartner(stack, { like: 'acme' });
  const [viewer, developer, admin] = await Promise.all(
    (['viewer', 'developer', 'admin'] as const).map((role) => Portal.as(userWith(partner.users, role), stack)),
  );
  return { partner, viewer: viewer as Portal, developer: developer as Portal, admin: admin as Portal, api: new ApiClient(stack.gatewayUrl, partner.key) };
}

/** Polls `probe` until it is true or `ms` passed; answers how long it took, or null. */
export async function within(ms: number, probe: () => Promise<boolean>): Promise<number | null> {
  const started = Date.now();
  do {
    if (await probe()) return Date.now() - started;
  } while (Date.now() - started < ms);
  return null;
}
