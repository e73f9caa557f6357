import { forbidden, notFound } from '@rental/problem';
import type { CaseAccess, CaseDirectory } from './ports';

/** Every case-scoped operation starts here: unknown case 404, another partner's case 403. */
export async function requireCaseOfPartner(cases: CaseDirectory, financingCaseId: string, partnerId: string, requestId?: string): Promise<CaseAccess> {
  const access = await cases.access(financingCaseId, { partnerId, requestId });
  if (!access.exists) throw notFound('financing_case.not_found', `No financing case ${financingCaseId}.`);
  if (access.partnerId !== partnerId) throw forbidden('financing_case.forbidden', 'The financing case belongs to another partner.');
  return access;
}

/** For internal calls: the case must exist; its owner is the partner the data is kept for. */
export async function requireCase(cases: CaseDirectory, financingCaseId: string, context: { partnerId?: string; requestId?: string }): Promise<CaseAccess> {
  const access = await cases.access(financingCaseId, context);
  if (!access.exists) throw notFound('financing_case.not_found', `No financing case ${financingCaseId}.`);
  if (context.partnerId && access.partnerId !== context.partnerId)
    throw forbidden('financing_case.forbidden', 'The financing case belongs to another partner.');
  return access;
}
