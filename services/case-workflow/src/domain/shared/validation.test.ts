import { z } from 'zod';
import { violationsOf } from './validation';

describe('violations of a request body', () => {
  const schema = z.object({ decision: z.enum(['accepted', 'rejected']), items: z.array(z.object({ kind: z.enum(['a', 'b']) })).optional() });
  const violations = (input: unknown, prefix = '') => {
    const result = schema.safeParse(input);
    return result.success ? [] : violationsOf(result.error, input, prefix).map((violation) => [violation.propertyPath, violation.code]);
  };

  it('when an enum field is missing, then it is required; when it has another value, then it is a wrong choice', () => {
    expect(violations({})).toEqual([['decision', 'validation.required']]);
    expect(violations({ decision: 'maybe' })).toEqual([['decision', 'validation.choice']]);
    expect(violations({ decision: 'accepted', items: [{ kind: 'a' }, {}] })).toEqual([['items[1].kind', 'validation.required']]);
  });

  it('when the body is nested under a prefix, then paths carry it and missing fields are still told apart', () => {
    expect(violations({ items: [{ kind: 'c' }] }, 'data')).toEqual([
      ['data.decision', 'validation.required'],
      ['data.items[0].kind', 'validation.choice'],
    ]);
  });
});
