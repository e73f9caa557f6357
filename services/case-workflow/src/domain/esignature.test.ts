import { isGenericMailbox, signerViolations } from './esignature';

const person = (email: string, soloSigneePermitted = false, firstName = 'Anna', lastName = 'Berg') => ({ firstName, lastName, email, soloSigneePermitted });

describe('e-signature signer rules', () => {
  it('when an address is a shared mailbox, then it is recognised whatever its case or tag', () => {
    expect(isGenericMailbox('info@customer.example')).toBe(true);
    expect(isGenericMailbox('No-Reply@customer.example')).toBe(true);
    expect(isGenericMailbox('buchhaltung+rechnung@customer.example')).toBe(true);
    expect(isGenericMailbox('anna.berg@customer.example')).toBe(false);
    expect(isGenericMailbox('information@customer.example')).toBe(false);
  });

  it('when a person gives a shared mailbox, then the violation points at that person\'s email', () => {
    expect(signerViolations([person('anna@c.example'), person('office@c.example', false, 'Otto', 'Amt')], null)).toEqual([
      { propertyPath: 'authorizedPersons[1].email', code: 'esignature.generic_mailbox', message: 'office@c.example is a shared mailbox; the invitation must go to the person who signs.' },
    ]);
  });

  it('when one person may not sign alone, then at least two are required; with permission one suffices', () => {
    expect(signerViolations([person('anna@c.example')], null)).toEqual([expect.objectContaining({ propertyPath: 'authorizedPersons', code: 'esignature.signers_insufficient' })]);
    expect(signerViolations([person('anna@c.example', true)], null)).toEqual([]);
    expect(signerViolations([person('anna@c.example'), person('ben@c.example', false, 'Ben')], null)).toEqual([]);
  });

  it('when one person is named twice (mailbox case-insensitive without +tag, or the same name), then each repeat is a violation and counts no signer', () => {
    expect(signerViolations([person('anna@c.example'), person('Anna+sign@C.Example', false, 'A.', 'B.')], null)).toEqual([
      { propertyPath: 'authorizedPersons[1]', code: 'esignature.duplicate_person', message: 'A. B. <Anna+sign@C.Example> is the same person as authorizedPersons[0]; each signer counts once.' },
      expect.objectContaining({ propertyPath: 'authorizedPersons', code: 'esignature.signers_insufficient' }),
    ]);
    expect(signerViolations([person('anna@c.example'), person('berg@other.example', false, ' anna ', 'BERG')], null).map((violation) => violation.code)).toEqual(['esignature.duplicate_person', 'esignature.signers_insufficient']);
    expect(signerViolations([person('anna@c.example', true), person('anna@c.example')], null).map((violation) => violation.code)).toEqual(['esignature.duplicate_person']);
  });

  it('when the lender issued a statement, then every person must be on it and the set must meet its signing rule', () => {
    const statement = { signatories: [{ firstName: 'Anna', lastName: 'Berg', email: 'anna@c.example' }, { firstName: 'Ben', lastName: 'Kurz', email: null }], minimumSigners: 2 };
    expect(signerViolations([person('anna@c.example'), person('ben.kurz@c.example', false, 'ben', 'KURZ')], statement)).toEqual([]);
    expect(signerViolations([person('anna@c.example'), person('carl@c.example', false, 'Carl', 'Ohne')], statement)).toEqual([
      expect.objectContaining({ propertyPath: 'authorizedPersons[1]', code: 'esignature.not_on_signing_statement' }),
    ]);
    expect(signerViolations([person('anna@c.example', true)], { ...statement, minimumSigners: 1 })).toEqual([]);
    expect(signerViolations([person('anna@c.example'), person('ben@c.example', false, 'Ben', 'Kurz')], { ...statement, minimumSigners: 3 })).toEqual([
      expect.objectContaining({ propertyPath: 'authorizedPersons', code: 'esignature.signing_rule_not_met' }),
    ]);
  });
});
