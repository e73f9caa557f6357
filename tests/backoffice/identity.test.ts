import { operatorToken } from './support/kit';

// Tokens of an issuer the test controls, on a production stack: operator-identity.suite.ts.

describe('the dev identity provider (shared sandbox stack)', () => {
  it('when a program asks with client credentials, then it gets a JWT for the back office naming the operator and roles', async () => {
    const token = await operatorToken('reviewer');
    const [header, payload] = token
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part as string, 'base64url').toString()));

    expect(header).toMatchObject({ alg: 'RS256', typ: 'at+jwt' });
    expect(payload).toMatchObject({ aud: 'rental-ops', sub: 'op-rene', client_id: 'ops-rene', name: 'Rene Reviewer', roles: ['viewer', 'reviewer'] });
  });
});
