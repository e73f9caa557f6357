/** Each role adds to the one before it: a viewer reads, a developer manages webhooks (and a sandbox's keys), an admin a production's keys. */
export const PORTAL_ROLES = ['viewer', 'developer', 'admin'] as const;
export type PortalRole = (typeof PORTAL_ROLES)[number];

/** The partner user a verified bearer token names (a person, or a program acting as that user). */
export interface PartnerUser {
  id: string;
  name: string | null;
  partnerId: string;
  roles: PortalRole[];
}

export function hasRole(user: PartnerUser, role: PortalRole): boolean {
  const needed = PORTAL_ROLES.indexOf(role);
  return user.roles.some((held) => PORTAL_ROLES.indexOf(held) >= needed);
}

/** One deployment is one environment: a sandbox's keys are a developer's to manage, a production's an admin's. */
export const keyRoleOf = (environment: string): PortalRole => (environment === 'production' ? 'admin' : 'developer');

/** The user as the audit names it. */
export const actorOf = (user: PartnerUser) => ({ type: 'partner_user' as const, id: user.id, name: user.name ?? user.id });
