/** The back office's OpenID discovery document, through the gateway's session configuration. */
export async function operatorDiscovery(
  gatewayUrl: string,
): Promise<{ issuer: string; token_endpoint: string; authorization_endpoint: string; jwks_uri: string }> {
  const config = (await (await fetch(`${gatewayUrl}/ops/v1/session-config`)).json()) as { issuer: string };
  return (await (await fetch(`${config.issuer}/.well-known/openid-configuration`)).json()) as never;
}

/** An operator's access token by client credentials (HTTP Basic, no other parameter), as a program gets one. */
export async function operatorAccessToken(gatewayUrl: string, operator: { clientId: string; clientSecret: string }): Promise<string> {
  const { token_endpoint: tokenEndpoint } = await operatorDiscovery(gatewayUrl);
  const response = await fetch(tokenEndpoint, {
    method: 'POST',
    headers: {
      Authorization: `Basic ${Buffer.from(`${operator.clientId}:${operator.clientSecret}`).toString('base64')}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: 'grant_type=client_credentials',
  });
  const body = (await response.json()) as { access_token?: string };
  if (response.status !== 200 || !body.access_token) throw new Error(`token endpoint answered ${response.status}`);
  return body.access_token;
}
