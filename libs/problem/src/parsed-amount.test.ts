import { isDomainError, parsedAmount } from './domain-error';

describe('parsedAmount', () => {
  it('answers what the reader read, and turns a reader that throws into invalid input naming the field', () => {
    expect(parsedAmount('pricing.invalid_amount', 'price', () => 1250n)).toBe(1250n);
    let thrown: unknown;
    try {
      parsedAmount('pricing.invalid_amount', 'price', () => {
        throw new Error('not a decimal');
      });
    } catch (error) {
      thrown = error;
    }
    expect(isDomainError(thrown) && [thrown.kind, thrown.code, thrown.message]).toEqual([
      'invalid_input',
      'pricing.invalid_amount',
      'price is not a valid amount.',
    ]);
  });
});
