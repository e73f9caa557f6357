import { z } from 'zod';
import { forbidden, ruleViolation } from '@rental/problem';
import { Contract, partnerActor } from './model';
import type { CaseStore } from './ports';
import { contractNotFound } from './reads';
import { parseOrFail } from './validation';

const CONTRACT_NUMBER_PATTERN = /^[A-Za-z0-9._/-]*$/;

export const contractNumberBody = z.object({
  contractNumber: z.string()
    .min(1, 'This value should not be blank.')
    .max(64, 'This value is too long; at most 64 characters.')
    .regex(CONTRACT_NUMBER_PATTERN, { message: 'Letters, digits and . _ / - only.' })
    .describe('1 to 64 letters, digits or . _ / -; unique among the partner\'s contracts'),
}).meta({ id: 'ContractNumberRequest' });

/**
 * PATCH /api/contracts/{id}/edit-contract-number: scope first (unknown 404, another partner's
 * 403), then the body, then uniqueness among the partner's contracts (422 at contractNumber).
 */
export async function editContractNumber(store: CaseStore, contractId: string, body: unknown, partnerId: string): Promise<Contract> {
  const details = await store.findContract(contractId);
  if (!details) throw contractNotFound(contractId);
  if (details.contract.partnerId !== partnerId) throw forbidden('contract.forbidden', 'The contract belongs to another partner.');
  const input = body ?? {};
  const { contractNumber } = parseOrFail(contractNumberBody, input);
  const outcome = await store.inCase(details.contract.financingCaseId, async (transaction) => {
    if (transaction.contract?.id !== contractId) throw contractNotFound(contractId);
    if (!(await transaction.setContractNumber(contractNumber))) {
      const message = `The contract number ${contractNumber} is already used by another contract of the partner.`;
      throw ruleViolation('contract.number_taken', message, [{ propertyPath: 'contractNumber', code: 'contract.number_taken', message }]);
    }
    return transaction.contract as Contract;
  }, { actor: partnerActor(partnerId) });
  if (!outcome) throw contractNotFound(contractId);
  return outcome.result;
}
