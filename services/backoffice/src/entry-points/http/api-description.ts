import { PAGE_SIZE, buildOpenApiDocument, problemResponses, rateLimitedResponse } from '@rental/http';
import { operations } from './contract';

const DESCRIPTION = [
  "The approval team's back office: the queue of financing cases of every partner, the case page with its history, and the team's decisions (moves, override, cancel, document reviews, requests, callback requests, notes, contract places, transmission to the lender).",
  '',
  "Every request carries `Authorization: Bearer <JWT>`, an access token of the operators' identity provider (`GET /ops/v1/session-config` names it) for the audience OPERATOR_AUDIENCE; roles come from the claim OPERATOR_ROLES_CLAIM. No or an invalid token is 401 with `WWW-Authenticate: Bearer`; a role too low 403, before the body is read. Roles add up: `viewer` reads, `reviewer` reviews, requests, transmits, keeps notes and callback requests and moves contracts, `approver` makes the finance moves, the override and the cancel.",
  '',
  `Errors are \`application/problem+json\`; every 422 names the field in \`violations\`. Collections are JSON arrays paged with \`page\` (${PAGE_SIZE} items per page).`,
].join('\n');

/**
 * What the gateway in front answers by itself on every back-office call: 429 when the client
 * address exceeds its rate limit, 503 when the back office does not answer, and 413 on a POST
 * whose body is larger than the gateway (MAX_BODY_BYTES) or the service (1 MB) accepts.
 */
const gatewayResponses = {
  keyed: { ...rateLimitedResponse('Too many requests from this client address'), ...problemResponses(503) },
  withBody: problemResponses(413),
};

/** The back office's OpenAPI description, from the same schemas the routes validate with. */
export function backofficeApiDescription(version: string): Record<string, unknown> {
  return buildOpenApiDocument({
    title: 'Rental back office API',
    version,
    description: DESCRIPTION,
    contact: { name: 'Approval team tooling', email: 'ops-tooling@partner-rental.example' },
    operations,
    gatewayResponses,
    tags: [{ name: 'Approval team', description: 'Cases, documents and decisions of the approval team' }],
    securityScheme: {
      name: 'operatorToken',
      scheme: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: "Access token of the operators' identity provider" },
    },
  });
}
