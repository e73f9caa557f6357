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
    expect(signerViolations([person('anna@c.example'), person('office@c.example')], null)).toEqual([
      { propertyPath: 'authorizedPersons[1].email', code: 'esignature.generic_mailbox', message: 'office@c.example is a shared mailbox; the invitation must go to the person who signs.' },
    ]);
  });

  it('when one person may not sign alone, then at least two are required; with permission one suffices', () => {
    expect(signerViolations([person('anna@c.example')], null)).toEqual([expect.objectContaining({ propertyPath: 'authorizedPersons', code: 'esignature.signers_insufficient' })]);
    expect(signerViolations([person('anna@c.example', true)], null)).toEqual([]);
    expect(signerViolations([person('anna@c.example'), person('ben@c.example', false, 'Ben')], null)).toEqual([]);
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
