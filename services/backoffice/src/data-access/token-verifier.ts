import { BearerTokenVerifier, type BearerTokenVerifierOptions, displayNameOf, listClaim } from '@rental/bearer-token';
import { OPERATOR_ROLES, Operator, OperatorRole } from '../domain/model';

export interface TokenVerifierOptions extends Pick<BearerTokenVerifierOptions, 'issuer' | 'audience'> {
  rolesClaim: string;
}

/** Operators' bearer JWTs of the operators' IdP (@rental/bearer-token), read as the operator they name. */
export class JwtVerifier {
  private readonly tokens: BearerTokenVerifier;

  constructor(private readonly options: TokenVerifierOptions) {
    this.tokens = new BearerTokenVerifier({ ...options, issuerLabel: "The operators' identity provider", audienceLabel: 'the back office' });
  }

  async verify(token: string): Promise<Operator> {
    const payload = await this.tokens.verify(token);
    const roles = listClaim(payload[this.options.rolesClaim]).filter((value): value is OperatorRole => (OPERATOR_ROLES as readonly string[]).includes(value));
    return { id: payload.sub, name: displayNameOf(payload), roles };
  }
}
