import { CONTRACT_PLACES, ContractMove, contractPath, envelopeSteps, nextContractPlace } from './contract-machine';

const MOVES: ContractMove[] = ['sign', 'require_post_processing', 'approve_delivery', 'check_invoice', 'complete', 'cancel'];
const ALLOWED = new Map<string, string>([
  ['wait_for_signing sign', 'signed'],
  ['signed require_post_processing', 'post_processing_required'],
  ['post_processing_required approve_delivery', 'delivery_approved'],
  ['delivery_approved check_invoice', 'invoice_checked'],
  ['invoice_checked complete', 'completed'],
  ['wait_for_signing cancel', 'canceled'],
]);

describe('contract places', () => {
  it('when every (place, move) pair is tried, then only the forward chain and cancel from wait_for_signing succeed', () => {
    for (const place of CONTRACT_PLACES) {
      for (const move of MOVES) {
        let result: string;
        try {
          result = nextContractPlace(place, move);
        } catch (error) {
          expect(error).toMatchObject({ kind: 'rule_violation', code: 'contract.transition_not_allowed' });
          result = 'refused';
        }
        expect([place, move, result]).toEqual([place, move, ALLOWED.get(`${place} ${move}`) ?? 'refused']);
      }
    }
  });

  it('when the sandbox skips forward, then every step of the chain is taken; backwards there is no path', () => {
    expect(contractPath('wait_for_signing', 'delivery_approved')).toEqual(['sign', 'require_post_processing', 'approve_delivery']);
    expect(contractPath('signed', 'signed')).toEqual([]);
    expect(contractPath('invoice_checked', 'signed')).toBeUndefined();
    expect(contractPath('canceled', 'signed')).toBeUndefined();
    expect(contractPath('wait_for_signing', 'canceled')).toBeUndefined();
  });
});

describe('signature envelope', () => {
  it('when the target is the current state, then nothing changes (idempotent)', () => {
    expect(envelopeSteps('sent', 'sent')).toEqual([]);
    expect(envelopeSteps('signed', 'signed')).toEqual([]);
    expect(envelopeSteps('declined', 'declined')).toEqual([]);
  });

  it('when sent, then it can be signed or declined; without an envelope one is sent first', () => {
    expect(envelopeSteps('sent', 'signed')).toEqual(['signed']);
    expect(envelopeSteps('sent', 'declined')).toEqual(['declined']);
    expect(envelopeSteps(null, 'sent')).toEqual(['sent']);
    expect(envelopeSteps(null, 'signed')).toEqual(['sent', 'signed']);
  });

  it('when signed or declined, then no other state can follow (422)', () => {
    for (const [from, to] of [
      ['signed', 'sent'],
      ['signed', 'declined'],
      ['declined', 'signed'],
      ['declined', 'sent'],
    ] as const) {
      expect(() => envelopeSteps(from, to)).toThrow(`The signature envelope is ${from}; it cannot become ${to}.`);
    }
  });
});
