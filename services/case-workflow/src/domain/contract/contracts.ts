import { z } from 'zod';
import { NOT_BLANK_MESSAGE, forbidden, ruleViolation, tooLongMessage } from '@rental/problem';
import type { ContractMove, ContractPlace } from './contract-machine';
import { Contract, partnerActor } from '../shared/model';
import type { CaseLocks, CaseReads, CaseRecord } from '../case/ports';
import type { ContractWork } from './ports';
import type { QuoteWork } from '../quote/ports';
import { contractNotFound } from '../case/reads';

const CONTRACT_NUMBER_PATTERN = /^[A-Za-z0-9._/-]*$/;

export const contractNumberBody = z
  .object({
    contractNumber: z
      .string()
      .min(1, NOT_BLANK_MESSAGE)
      .max(64, tooLongMessage(64))
      .regex(CONTRACT_NUMBER_PATTERN, { message: 'Letters, digits and . _ / - only.' })
      .describe("1 to 64 letters, digits or . _ / -; unique among the partner's contracts"),
  })
  .meta({ id: 'ContractNumberRequest' });

/**
 * PATCH /api/contracts/{id}/edit-contract-number, first step: the scope (unknown 404, another
 * partner's 403) comes before the body.
 */
export async function editableContract(store: CaseReads, contractId: string, partnerId: string): Promise<Contract> {
  const details = await store.findContract(contractId);
  if (!details) throw contractNotFound(contractId);
  if (details.contract.partnerId !== partnerId) throw forbidden('contract.forbidden', 'The contract belongs to another partner.');
  return details.contract;
}

/** Then the number, unique among the partner's contracts (422 at contractNumber). */
export async function editContractNumber(store: CaseLocks, contract: Contract, contractNumber: string): Promise<Contract> {
  const { id: contractId, partnerId } = contract;
  const outcome = await store.inCase(
    contract.financingCaseId,
    async (transaction) => {
      if (transaction.contract?.id !== contractId) throw contractNotFound(contractId);
      if (!(await transaction.setContractNumber(contractNumber))) {
        const message = `The contract number ${contractNumber} is already used by another contract of the partner.`;
        throw ruleViolation('contract.number_taken', message, [{ propertyPath: 'contractNumber', code: 'contract.number_taken', message }]);
      }
      return transaction.contract as Contract;
    },
    { actor: partnerActor(partnerId) },
  );
  if (!outcome) throw contractNotFound(contractId);
  return outcome.result;
}

/**
 * The contract's moves to `target` in the case's transaction, one event each. A contract that
 * completes completes its quote (finance_accepted → completed, with the quote's `complete`
 * event), whoever moves it: the approval team in production, a partner's sandbox scenario.
 */
export async function moveContractTo(transaction: CaseRecord & ContractWork & QuoteWork, moves: readonly ContractMove[], target: ContractPlace): Promise<void> {
  for (const move of moves) await transaction.moveContract(move);
  if (target === 'completed' && transaction.financingCase.status === 'finance_accepted') await transaction.moveQuote('complete');
}
