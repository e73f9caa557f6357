// Signing a person in at an OpenID Connect provider from a page (authorization code with PKCE,
// oauth4webapi, a public client), and the access token kept in sessionStorage: the console's and
// the partner portal's. Served beside oauth4webapi.js under each page's assets path.
import * as oauth from './oauth4webapi.js';

/**
 * configPath: where the page reads {issuer, …} without a token; clientIdOf(config): its public
 * client; callbackPath: where the provider sends the browser back; storagePrefix: its keys in
 * sessionStorage; returnTo(): where a sign-in started now comes back to.
 */
export function oidcSession({ configPath, clientIdOf, callbackPath, storagePrefix, returnTo }) {
  const insecure = { [oauth.allowInsecureRequests]: location.protocol === 'http:' };
  const redirectUri = `${location.origin}${callbackPath}`;
  const pendingKey = `${storagePrefix}.pkce`;
  const tokenKey = `${storagePrefix}.token`;
  let server;

  async function authorizationServer() {
    if (!server) {
      const config = await (await fetch(configPath)).json();
      const issuer = new URL(config.issuer);
      const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, insecure));
      server = { as, client: { client_id: clientIdOf(config) } };
    }
    return server;
  }

  const token = () => {
    const stored = JSON.parse(sessionStorage.getItem(tokenKey) ?? 'null');
    return stored && stored.expiresAt > Date.now() + 10_000 ? stored.accessToken : null;
  };

  /** Leaves for the provider's sign-in; the browser comes back to callbackPath, then to returnTo(). */
  async function signIn() {
    const { as, client } = await authorizationServer();
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    sessionStorage.setItem(pendingKey, JSON.stringify({ verifier, state, returnTo: returnTo() }));
    const url = new URL(as.authorization_endpoint);
    url.search = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid profile',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    }).toString();
    location.assign(url.href);
  }

  return {
    signIn,
    token,

    /**
     * A JSON call with the token: 401 signs in again; another failure throws an Error naming the
     * problem's detail and its violations.
     */
    async api(method, path, body) {
      const response = await fetch(path, {
        method,
        headers: { Authorization: `Bearer ${token()}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (response.status === 401) {
        sessionStorage.removeItem(tokenKey);
        await signIn();
        throw new Error('Signing in again…');
      }
      const json = response.headers.get('content-type')?.includes('json') ? await response.json() : null;
      if (!response.ok) {
        const fields = (json?.violations ?? []).map((v) => `${v.propertyPath}: ${v.message}`).join('; ');
        throw new Error(`${json?.detail ?? `${response.status} ${response.statusText}`}${fields ? ` (${fields})` : ''}`);
      }
      return json;
    },

    /** On callbackPath: trades the code for the token and answers where the sign-in started. */
    async finishSignIn() {
      const { as, client } = await authorizationServer();
      const pending = JSON.parse(sessionStorage.getItem(pendingKey) ?? 'null');
      sessionStorage.removeItem(pendingKey);
      if (!pending) throw new Error('The sign-in was not started here; sign in again.');
      const params = oauth.validateAuthResponse(as, client, new URL(location.href), pending.state);
      const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri, pending.verifier, insecure);
      const result = await oauth.processAuthorizationCodeResponse(as, client, response);
      sessionStorage.setItem(tokenKey, JSON.stringify({ accessToken: result.access_token, expiresAt: Date.now() + (result.expires_in ?? 300) * 1000 }));
      return pending.returnTo;
    },

    forget() {
      sessionStorage.removeItem(tokenKey);
    },
  };
}
