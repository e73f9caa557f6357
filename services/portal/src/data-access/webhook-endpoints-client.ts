import { IDENTITY_HEADER, IdentityKeys } from '@rental/identity';
import { traceHeaders } from '@rental/logger';
import { DomainError, PROBLEM_TYPE_PATH, type ProblemDocument, fromProblem, notFound } from '@rental/problem';
import type { WebhookCall, WebhookEndpoints, WebhookReply } from '../domain/ports';

const API_PATH = '/api/webhook_endpoints';
const PORTAL_PATH = '/portal/v1/webhook-endpoints';
/** The partner API's role for changes: the portal has checked the user's own role already. */
const PARTNER_ROLES = ['api_user'];

/**
 * The partner API's webhook operations of notifications, called for the user's partner with an
 * identity the portal signs (as the gateway does for a key): the same rules, data, bodies and
 * statuses by construction, with no second copy of them here.
 */
export class HttpWebhookEndpoints implements WebhookEndpoints {
  constructor(private readonly baseUrl: string, private readonly identity: IdentityKeys, private readonly timeoutMs: number) {}

  async call(partnerId: string, call: WebhookCall): Promise<WebhookReply> {
    const url = new URL(`${this.baseUrl.replace(/\/$/, '')}${API_PATH}${call.path}`);
    for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, value);
    let response: Response;
    try {
      response = await fetch(url, {
        method: call.method,
        headers: {
          [IDENTITY_HEADER]: await this.identity.sign({ caller: 'portal', partnerId, roles: PARTNER_ROLES }),
          'X-Request-Id': call.requestId,
          ...traceHeaders(),
          ...(call.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw new DomainError('unavailable', 'dependency.unavailable', 'A service this request depends on is not available right now. Retry later.', { cause: error });
    }
    const text = await response.text();
    const body: unknown = text ? JSON.parse(text) : undefined;
    if (!response.ok) throw refusalOf(response, body as ProblemDocument, call);
    const headers: Record<string, string> = {};
    const location = response.headers.get('location');
    if (location) headers.Location = location.replace(API_PATH, PORTAL_PATH);
    return { status: response.status, body, headers };
  }
}

/** The owner's refusal as its DomainError; another partner's endpoint is, in the portal, one that does not exist. */
function refusalOf(response: Response, problem: ProblemDocument, call: WebhookCall): DomainError {
  const code = problem?.type?.split(PROBLEM_TYPE_PATH).pop() ?? 'dependency.failed';
  if (code === 'webhook_endpoint.forbidden') return notFound('webhook_endpoint.not_found', `No webhook endpoint ${call.path.split('/')[1] ?? ''}.`);
  const error = fromProblem(problem, code);
  const retryAfter = Number(response.headers.get('retry-after'));
  if (!Number.isFinite(retryAfter) || retryAfter <= 0) return error;
  return new DomainError(error.kind, error.code, error.detail, { violations: error.violations, extra: error.extra, retryAfterSeconds: retryAfter });
}
