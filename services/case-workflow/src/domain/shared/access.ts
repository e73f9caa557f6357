import { forbidden, notFound } from '@rental/problem';
import type { FinancingCase } from './model';
import type { CaseReads } from '../case/ports';

const API_USER_ROLE = 'api_user';

export const caseNotFound = (id: string) => notFound('financing_case.not_found', `No financing case ${id}.`);

/** Reads: another partner's case does not exist for the caller (404). */
export function readableCase(financingCase: FinancingCase | undefined, id: string, partnerId: string): FinancingCase {
  if (!financingCase || financingCase.partnerId !== partnerId) throw caseNotFound(id);
  return financingCase;
}

/** Changes: an unknown case is 404, another partner's case 403. */
export function ownCase(financingCase: FinancingCase, partnerId: string): FinancingCase {
  if (financingCase.partnerId !== partnerId) throw forbidden('financing_case.forbidden', 'The financing case belongs to another partner.');
  return financingCase;
}

/** A change's first step, before its body is read: an unknown case is 404, another partner's case 403. */
export async function changeableCase(store: Pick<CaseReads, 'findCase'>, id: string, partnerId: string): Promise<FinancingCase> {
  const found = await store.findCase(id);
  if (!found) throw caseNotFound(id);
  return ownCase(found, partnerId);
}

/** Cancel and the sandbox operations need the API-user role. */
export function requireApiUser(roles: readonly string[]): void {
  if (!roles.includes(API_USER_ROLE))
    throw forbidden('auth.role_required', `This operation needs the ${API_USER_ROLE} role; the API key used does not have it.`);
}
