import { z } from 'zod';
import { zodViolations } from './zod-violations';
import { DomainError } from './domain-error';
import { describeProblems, fromProblem, toProblem } from './problem';

const schema = z.strictObject({
  items: z.array(z.object({ quantity: z.number().int().positive(), price: z.number() })),
  interval: z.enum(['monthly', 'quarterly']),
  name: z.string(),
});

describe('zodViolations', () => {
  it('when fields are missing, mistyped, unknown or not a choice, then each gets its own path and code', () => {
    const input = { items: [{ quantity: 'two', price: 1 }, { price: 2 }], interval: 'weekly', extra: true };
    const result = schema.safeParse(input);
    if (result.success) throw new Error('expected a failure');
    expect(zodViolations(result.error, input)).toEqual([
      { propertyPath: 'items[0].quantity', code: 'validation.type', message: 'This value should be of type number.' },
      { propertyPath: 'items[1].quantity', code: 'validation.required', message: 'This value is required.' },
      { propertyPath: 'interval', code: 'validation.choice', message: 'The value you selected is not a valid choice. Allowed values: monthly, quarterly.' },
      { propertyPath: 'name', code: 'validation.required', message: 'This value is required.' },
      { propertyPath: 'extra', code: 'validation.unknown_field', message: 'This field is not allowed.' },
    ]);
  });

  it('when a schema gives its own message and code, then both are kept', () => {
    const custom = z.object({
      page: z.number({ message: 'page must be an integer' }),
      durations: z.array(z.number()).refine(() => false, { message: 'not available', params: { code: 'calculation.validation.duration_not_available' } }),
    });
    const input = { page: 'x', durations: [12] };
    const result = custom.safeParse(input);
    if (result.success) throw new Error('expected a failure');
    expect(zodViolations(result.error, input)).toEqual([
      { propertyPath: 'page', code: 'validation.type', message: 'page must be an integer' },
      { propertyPath: 'durations', code: 'calculation.validation.duration_not_available', message: 'not available' },
    ]);
  });
});

describe('problem documents', () => {
  it('when a domain error becomes a problem and back, then kind, code, detail, violations and extra members survive', () => {
    const error = new DomainError('rule_violation', 'cart.mixed', 'Mixed.', {
      violations: [{ propertyPath: 'items[0]', code: 'MIXED_ARTICLE_TYPES', message: 'm' }],
      extra: { offers: [] },
    });
    const problem = toProblem(error);
    expect(problem).toEqual({
      offers: [],
      type: '/problems/cart.mixed',
      title: 'Unprocessable Entity',
      status: 422,
      detail: 'Mixed.',
      violations: [{ propertyPath: 'items[0]', code: 'MIXED_ARTICLE_TYPES', message: 'm' }],
    });
    const back = fromProblem({ ...problem, instance: 'urn:request:r-1' }, 'cart.mixed');
    expect([back.kind, back.code, back.detail, back.violations, back.extra]).toEqual([
      'rule_violation',
      'cart.mixed',
      'Mixed.',
      error.violations,
      { offers: [] },
    ]);
  });

  it('when a 422 has no violations, then it still carries an empty list; extra members never override standard ones', () => {
    expect(toProblem(new DomainError('rule_violation', 'x', 'd', { extra: { status: 200, title: 'hijack' } }))).toEqual({
      type: '/problems/x',
      title: 'Unprocessable Entity',
      status: 422,
      detail: 'd',
      violations: [],
    });
  });

  it("when the process described its problems, then the title is the catalogue's and the type lies under the public base", () => {
    describeProblems({ 'cart.not_found': { title: 'Cart not found', meaning: 'm', fix: 'f' } }, 'https://api.example/');
    try {
      expect([toProblem(new DomainError('not_found', 'cart.not_found', 'No cart 1.')), toProblem(new DomainError('conflict', 'not.described', 'd'))]).toEqual([
        { type: 'https://api.example/problems/cart.not_found', title: 'Cart not found', status: 404, detail: 'No cart 1.' },
        { type: 'https://api.example/problems/not.described', title: 'Conflict', status: 409, detail: 'd' },
      ]);
    } finally {
      describeProblems({});
    }
  });
});
