import { BearerTokenVerifier, displayNameOf, listClaim } from '@rental/bearer-token';
import { OPERATOR_ROLES, Operator, OperatorRole } from '../domain/model';

export interface TokenVerifierOptions {
  issuer: string;
  audience: string;
  rolesClaim: string;
}

/** Operators' bearer JWTs of the operators' IdP (@rental/bearer-token), read as the operator they name. */
export class JwtVerifier {
  private readonly tokens: BearerTokenVerifier;

  constructor(private readonly options: TokenVerifierOptions) {
    this.tokens = new BearerTokenVerifier({
      issuer: options.issuer,
      audience: options.audience,
      issuerLabel: "The operators' identity provider",
      audienceLabel: 'the back office',
    });
  }

  async verify(token: string): Promise<Operator> {
    const payload = await this.tokens.verify(token);
    const roles = listClaim(payload[this.options.rolesClaim]).filter((value): value is OperatorRole => (OPERATOR_ROLES as readonly string[]).includes(value));
    return { id: payload.sub, name: displayNameOf(payload), roles };
  }
}
