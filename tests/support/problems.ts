import { PROBLEM_CATALOGUE, type ProblemCode } from '@rental/proto';
import type { ApiResponse } from '@rental/testkit';
import { sharedStack } from './shared-stack';

/** The `type` of a problem a stack answers: the page of its code under the stack's gateway (PUBLIC_BASE_URL). */
export function problemTypeOf(code: string, gatewayUrl: string = sharedStack().gatewayUrl): string {
  return `${gatewayUrl}/problems/${code}`;
}

/** The `title` of every problem of a code: the catalogue's, in the problem's own words. */
export function problemTitleOf(code: ProblemCode): string {
  return PROBLEM_CATALOGUE[code].title;
}

/** The `instance` of a problem answer: the request id the response carries. */
export function problemInstanceOf(response: Pick<ApiResponse, 'headers'>): string {
  return `urn:request:${response.headers.get('x-request-id')}`;
}
