import { DomainError, type ProblemCode, notFound, ruleViolation } from '@rental/problem';
import { PROBLEM_CATALOGUE } from './problems';

// typecheck compiles this file: each @ts-expect-error fails the build if tsc accepts its line.
describe('problem codes', () => {
  it('when a domain error names a code the catalogue does not describe, then tsc rejects it', () => {
    // @ts-expect-error 'cart.no_such_problem' is not a catalogued code
    const unknown = new DomainError('not_found', 'cart.no_such_problem', 'No such problem.');
    // @ts-expect-error a helper takes only catalogued codes as well
    const unknownOfHelper = ruleViolation('cart.no_such_rule', 'No such rule.');

    expect([unknown.code, unknownOfHelper.code].filter((code) => Object.hasOwn(PROBLEM_CATALOGUE, code))).toEqual([]);
  });

  it('when a domain error names a catalogued code, then tsc accepts it and the catalogue describes it', () => {
    const code: ProblemCode = 'financing_case.not_found';

    const error = notFound(code, 'No financing case 1.');

    expect(PROBLEM_CATALOGUE[error.code].title).toBe('Financing case not found');
  });
});
