import { amountOf, centsOfDecimal, factorOf } from './money';

describe('money', () => {
  it('when a decimal string arrives, then it becomes exact cents; an empty string is null', () => {
    expect(centsOfDecimal('1000.00')).toBe(100000n);
    expect(centsOfDecimal('34.3')).toBe(3430n);
    expect(centsOfDecimal('0.07')).toBe(7n);
    expect(centsOfDecimal('12')).toBe(1200n);
    expect(centsOfDecimal('')).toBeNull();
    expect(() => centsOfDecimal('1.234')).toThrow('not an amount');
    expect(() => centsOfDecimal('abc')).toThrow('not an amount');
  });

  it('when cents are shown, then they are a number with at most two decimals', () => {
    expect(amountOf(3430n)).toBe(34.3);
    expect(amountOf(100000n)).toBe(1000);
    expect(amountOf(10n)).toBe(0.1);
    expect(amountOf(-5n)).toBe(-0.05);
    expect(amountOf(123456789012n)).toBe(1234567890.12);
  });

  it('when a factor arrives, then it keeps three decimals', () => {
    expect(factorOf('3.18')).toBe('3.180');
    expect(factorOf('3.180')).toBe('3.180');
    expect(factorOf('10')).toBe('10.000');
    expect(factorOf('')).toBeNull();
    expect(() => factorOf('3.1805')).toThrow('not a factor');
  });
});
