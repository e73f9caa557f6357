import type { IncomingMessage, ServerResponse } from 'node:http';
import { problemOfResponse } from './problem-response';

function response(requestHeaders: Record<string, string>, requestId?: string): ServerResponse {
  const req = { headers: requestHeaders, socket: {} } as unknown as IncomingMessage;
  return { req, getHeader: (name: string) => (name === 'x-request-id' ? requestId : undefined) } as unknown as ServerResponse;
}

const problem = { type: '/problems/cart.not_found', title: 'Cart not found', status: 404, detail: 'No cart 1.' };

describe('a problem as a response sends it', () => {
  it('when no public base is configured, then the type lies under the address the client used, as forwarded', () => {
    expect([
      problemOfResponse(problem, response({ host: 'cart-checkout:8080', 'x-forwarded-host': 'api.example', 'x-forwarded-proto': 'https,http' }, 'r-1')),
      problemOfResponse(problem, response({ host: '127.0.0.1:8080' })),
    ]).toEqual([
      { ...problem, type: 'https://api.example/problems/cart.not_found', instance: 'urn:request:r-1' },
      { ...problem, type: 'http://127.0.0.1:8080/problems/cart.not_found' },
    ]);
  });

  it('when the type is absolute already or the host is not one, then the type stays as it is', () => {
    const absolute = { ...problem, type: 'https://public.example/problems/cart.not_found' };

    expect([
      problemOfResponse(absolute, response({ host: 'other.example' }, 'r-2')).type,
      problemOfResponse(problem, response({ host: 'bad host"' })).type,
    ]).toEqual(['https://public.example/problems/cart.not_found', '/problems/cart.not_found']);
  });
});
