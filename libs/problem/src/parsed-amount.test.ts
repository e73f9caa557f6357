import { isDomainError, parsedAmount } from './domain-error';

describe('parsedAmount', () => {
  it('answers what the reader read, and turns a reader that throws into invalid input naming the field', () => {
    expect(parsedAmount(() => 1250n, 'pricing.invalid_amount', 'price')).toBe(1250n);
    let thrown: unknown;
    try {
      parsedAmount(() => { throw new Error('not a decimal'); }, 'pricing.invalid_amount', 'price');
    } catch (error) {
      thrown = error;
    }
    expect(isDomainError(thrown) && [thrown.kind, thrown.code, thrown.message]).toEqual(['invalid_input', 'pricing.invalid_amount', 'price is not a valid amount.']);
  });
});
