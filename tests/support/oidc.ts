import { ApiClient, ApiResponse } from '@rental/testkit';

/** An access token by client credentials (HTTP Basic, no other parameter), as a program gets one. */
export async function clientCredentialsToken(issuerConfigUrl: string, clientId: string, clientSecret: string): Promise<string> {
  const config = (await (await fetch(issuerConfigUrl)).json()) as { issuer: string };
  const { token_endpoint: tokenEndpoint } = (await (await fetch(`${config.issuer}/.well-known/openid-configuration`)).json()) as { token_endpoint: string };
  const response = await fetch(tokenEndpoint, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  const body = (await response.json()) as { access_token?: string };
  if (response.status !== 200 || !body.access_token) throw new Error(`token endpoint answered ${response.status}`);
  return body.access_token;
}

/** Calls through the gateway with a bearer token (or none): the back office's and the portal's callers. */
export class BearerClient {
  private readonly api: ApiClient;

  constructor(
    readonly token: string | null,
    gatewayUrl: string,
  ) {
    this.api = new ApiClient(gatewayUrl);
  }

  private headers(): Record<string, string> {
    return this.token ? { Authorization: `Bearer ${this.token}` } : {};
  }

  get(path: string): Promise<ApiResponse> {
    return this.api.get(path, { key: null, headers: this.headers() });
  }

  post(path: string, body?: unknown): Promise<ApiResponse> {
    return this.api.post(path, body, { key: null, headers: this.headers() });
  }

  patch(path: string, body?: unknown): Promise<ApiResponse> {
    return this.api.patch(path, body, { key: null, headers: this.headers() });
  }

  delete(path: string): Promise<ApiResponse> {
    return this.api.delete(path, { key: null, headers: this.headers() });
  }

  /** Any method, with the body sent as it is (malformed JSON too). */
  send(method: string, path: string, rawBody?: string): Promise<ApiResponse> {
    return this.api.request(method, path, {
      key: null,
      rawBody,
      headers: { ...this.headers(), ...(rawBody === undefined ? {} : { 'Content-Type': 'application/json' }) },
    });
  }
}
