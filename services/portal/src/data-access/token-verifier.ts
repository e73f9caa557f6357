import { BearerTokenVerifier, type BearerTokenVerifierOptions, displayNameOf, invalidToken, listClaim } from '@rental/bearer-token';
import { PORTAL_ROLES, PartnerUser, PortalRole } from '../domain/roles';

export interface PartnerTokenOptions extends Pick<BearerTokenVerifierOptions, 'issuer' | 'audience'> {
  partnerClaim: string;
  rolesClaim: string;
}

/**
 * Partner users' bearer JWTs (@rental/bearer-token): issuer, audience, signature and expiry, then
 * the partner claim; an operator's token (another audience) never passes.
 */
export class PartnerTokenVerifier {
  private readonly tokens: BearerTokenVerifier;

  constructor(
    private readonly options: PartnerTokenOptions,
    private readonly partnerExists: (partnerId: string) => Promise<boolean>,
  ) {
    this.tokens = new BearerTokenVerifier({ ...options, issuerLabel: "The partners' identity provider", audienceLabel: 'the partner portal' });
  }

  async verify(token: string): Promise<PartnerUser> {
    const payload = await this.tokens.verify(token);
    const partnerId = payload[this.options.partnerClaim];
    if (typeof partnerId !== 'string' || !partnerId) throw invalidToken('The token names no partner.');
    if (!(await this.partnerExists(partnerId))) throw invalidToken('The token names an unknown partner.');
    const roles = listClaim(payload[this.options.rolesClaim]).filter((value): value is PortalRole => (PORTAL_ROLES as readonly string[]).includes(value));
    return { id: payload.sub, name: displayNameOf(payload), partnerId, roles };
  }
}
