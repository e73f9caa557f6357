import { isGenericMailbox, signerViolations } from './esignature';

const person = (email: string, soloSigneePermitted = false, firstName = 'Anna', lastName = 'Berg') => ({ firstName, lastName, email, soloSigneePermitted });

/** The signatories a lender's statement names in these tests, and a statement of some of them. */
const anna = { firstName: 'Anna', lastName: 'Berg', email: 'anna@c.example' };
const ben = { firstName: 'Ben', lastName: 'Kurz', email: 'ben@c.example' };
const cleo = { firstName: 'Cleo', lastName: 'Lang', email: 'cleo@c.example' };
const statementOf = (minimumSigners: number, ...signatories: { firstName: string; lastName: string; email: string | null }[]) => ({
  signatories,
  minimumSigners,
});

describe('e-signature signer rules', () => {
  it('when an address is a shared mailbox, then it is recognised whatever its case or tag', () => {
    expect(isGenericMailbox('info@customer.example')).toBe(true);
    expect(isGenericMailbox('No-Reply@customer.example')).toBe(true);
    expect(isGenericMailbox('buchhaltung+rechnung@customer.example')).toBe(true);
    expect(isGenericMailbox('anna.berg@customer.example')).toBe(false);
    expect(isGenericMailbox('information@customer.example')).toBe(false);
  });

  it("when a person gives a shared mailbox, then the violation points at that person's email", () => {
    expect(signerViolations([person('anna@c.example'), person('office@c.example', false, 'Otto', 'Amt')], null)).toEqual([
      {
        propertyPath: 'authorizedPersons[1].email',
        code: 'esignature.generic_mailbox',
        message: 'office@c.example is a shared mailbox; the invitation must go to the person who signs.',
      },
    ]);
  });

  it('when one person may not sign alone, then at least two are required; with permission one suffices', () => {
    expect(signerViolations([person('anna@c.example')], null)).toEqual([
      expect.objectContaining({ propertyPath: 'authorizedPersons', code: 'esignature.signers_insufficient' }),
    ]);
    expect(signerViolations([person('anna@c.example', true)], null)).toEqual([]);
    expect(signerViolations([person('anna@c.example'), person('ben@c.example', false, 'Ben')], null)).toEqual([]);
  });

  it('when one person is named twice (mailbox case-insensitive without +tag, or the same name), then each repeat is a violation and counts no signer', () => {
    expect(signerViolations([person('anna@c.example'), person('Anna+sign@C.Example', false, 'A.', 'B.')], null)).toEqual([
      {
        propertyPath: 'authorizedPersons[1]',
        code: 'esignature.duplicate_person',
        message: 'A. B. <Anna+sign@C.Example> is the same person as authorizedPersons[0]; each signer counts once.',
      },
      expect.objectContaining({ propertyPath: 'authorizedPersons', code: 'esignature.signers_insufficient' }),
    ]);
    expect(
      signerViolations([person('anna@c.example'), person('berg@other.example', false, ' anna ', 'BERG')], null).map((violation) => violation.code),
    ).toEqual(['esignature.duplicate_person', 'esignature.signers_insufficient']);
    expect(signerViolations([person('anna@c.example', true), person('anna@c.example')], null).map((violation) => violation.code)).toEqual([
      'esignature.duplicate_person',
    ]);
  });

  it('when the lender issued a statement, then every person must be on it by first name, last name and e-mail, and the set must meet its signing rule', () => {
    const statement = statementOf(2, anna, { ...ben, email: 'Ben.Kurz@C.example' });
    expect(signerViolations([person('anna@c.example'), person('ben.kurz@c.example', false, ' ben ', 'KURZ')], statement)).toEqual([]);
    expect(signerViolations([person('anna@c.example'), person('carl@c.example', false, 'Carl', 'Ohne')], statement)).toEqual([
      {
        propertyPath: 'authorizedPersons[1]',
        code: 'esignature.not_on_signing_statement',
        message: "Carl Ohne is not named on the lender's statement of who may sign for the customer.",
      },
    ]);
    expect(signerViolations([person('anna@c.example', true)], { ...statement, minimumSigners: 1 })).toEqual([]);
    expect(signerViolations([person('anna@c.example'), person('ben.kurz@c.example', false, 'Ben', 'Kurz')], { ...statement, minimumSigners: 3 })).toEqual([
      expect.objectContaining({ propertyPath: 'authorizedPersons', code: 'esignature.signing_rule_not_met' }),
    ]);
  });

  it('when a listed name comes with another mailbox, or a listed mailbox with another name, then that person is not on the statement', () => {
    const statement = statementOf(2, anna, ben);
    expect(signerViolations([person('anna@c.example'), person('someone.else@elsewhere.example', false, 'Ben', 'Kurz')], statement)).toEqual([
      {
        propertyPath: 'authorizedPersons[1]',
        code: 'esignature.not_on_signing_statement',
        message: "The lender's statement names Ben Kurz with another e-mail address; the invitation must go to the address the lender gave.",
      },
    ]);
    expect(signerViolations([person('anna@c.example'), person('ben@c.example', false, 'Bernd', 'Kurz')], statement).map((violation) => violation.code)).toEqual(
      ['esignature.not_on_signing_statement'],
    );
  });

  it('when the statement lists a signatory without an e-mail, then nobody is matched to it', () => {
    const statement = statementOf(1, { ...anna, email: null });
    expect(signerViolations([person('anna@c.example', true)], statement)).toEqual([
      {
        propertyPath: 'authorizedPersons[0]',
        code: 'esignature.not_on_signing_statement',
        message:
          "The lender's statement names Anna Berg without an e-mail address, so no invitation can be bound to them; ask the lender for a statement with their address.",
      },
    ]);
  });

  it('when one listed person may sign alone but the statement asks for two signers, then the signing rule is not met', () => {
    const statement = statementOf(2, anna, ben, cleo);
    expect(signerViolations([person('anna@c.example', true)], statement)).toEqual([
      {
        propertyPath: 'authorizedPersons',
        code: 'esignature.signing_rule_not_met',
        message: "The lender's statement requires at least 2 persons to sign together; 1 was given (soloSigneePermitted does not lower the lender's minimum).",
      },
    ]);
  });
});
