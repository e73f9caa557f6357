import type { Contract, Quote, QuoteItem } from '../shared/model';
import type { ContractMove, ContractPlace } from './contract-machine';

/** The contract of the locked case: its creation, its moves and its number. */
export interface ContractWork {
  /** A contract at wait_for_signing (event: create, from new); `id` when the provider was told it before. */
  createContract(id?: string): Promise<Contract>;
  moveContract(move: ContractMove): Promise<void>;
  /** Sandbox rewind: the contract directly at `target`, created when missing (one event, transition reset). */
  resetContract(target: ContractPlace): Promise<void>;
  /** Sandbox rewind: contract and envelope removed, announced by one contract event (toStatus removed, transition reset). */
  deleteContract(): Promise<void>;
  /** false when another contract of the partner has the number. */
  setContractNumber(contractNumber: string): Promise<boolean>;
}

/** Renders the contract to be signed as a PDF. */
export interface ContractRenderer {
  render(contract: ContractToSign): Promise<Buffer>;
}

export interface ContractToSign {
  caseNumber: string;
  contractNumber: string | null;
  quote: Quote;
  items: QuoteItem[];
  signers: { firstName: string; lastName: string; email: string }[];
}
