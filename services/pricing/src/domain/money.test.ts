import { amountOf, centsOf, centsOfDecimal, decimalOf, divideRoundingHalfUp, hasAtMostTwoDecimals, milliDecimalOf, milliOfDecimal } from './money';

describe('money', () => {
  it('when a number has at most two decimals, then it converts to exact cents', () => {
    expect(centsOf(0.1)).toBe(10n);
    expect(centsOf(1000)).toBe(100000n);
    expect(centsOf(19.99)).toBe(1999n);
    expect(centsOf(null)).toBe(0n);
    expect(centsOf(1234567.89)).toBe(123456789n);
  });

  it('when a number has more than two decimals, then it is refused by the check', () => {
    expect(hasAtMostTwoDecimals(1.25)).toBe(true);
    expect(hasAtMostTwoDecimals(1.255)).toBe(false);
    expect(hasAtMostTwoDecimals(Number.NaN)).toBe(false);
  });

  it('when cents are rendered, then they keep two places', () => {
    expect(decimalOf(3430n)).toBe('34.30');
    expect(decimalOf(5n)).toBe('0.05');
    expect(amountOf(3430n)).toBe(34.3);
    expect(centsOfDecimal('34.30')).toBe(3430n);
    expect(centsOfDecimal('')).toBeUndefined();
  });

  it('when a division ends in a half, then it rounds up', () => {
    expect(divideRoundingHalfUp(5n, 10n)).toBe(1n);
    expect(divideRoundingHalfUp(4n, 10n)).toBe(0n);
    expect(divideRoundingHalfUp(15n, 10n)).toBe(2n);
  });

  it('when factors travel as text, then thousandths are exact', () => {
    expect(milliDecimalOf(3180)).toBe('3.180');
    expect(milliDecimalOf(15000)).toBe('15.000');
    expect(milliOfDecimal('3.18')).toBe(3180);
    expect(milliOfDecimal('2.045')).toBe(2045);
  });
});
