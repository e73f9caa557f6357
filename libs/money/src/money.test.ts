import {
  amountOfCents,
  amountOfDecimal,
  centsOfAmount,
  centsOfDecimal,
  decimalOfCents,
  decimalOfNumber,
  divideRoundingHalfUp,
  euroText,
  hasAtMostDecimals,
  hasAtMostTwoDecimals,
  milliOfPercentage,
  percentageOfMilli,
  scaledOfDecimal,
} from './index';

describe('amounts', () => {
  it.each([
    [1000, 100_000n],
    [1000.5, 100_050n],
    [0.1, 10n],
    [0.29, 29n],
    [19.99, 1999n],
    [-2.5, -250n],
    [null, 0n],
    [undefined, 0n],
    [9_007_199_254_740.99, 900_719_925_474_099n],
  ])('when %p is read as an amount, then it is %p cents', (value, cents) => {
    expect(centsOfAmount(value)).toBe(cents);
  });

  it.each([
    [1.5, true],
    [10.25, true],
    [0.001, false],
    [1e-7, false],
    [Number.NaN, false],
    [Number.POSITIVE_INFINITY, false],
  ])('when %p is checked for two decimals, then %p', (value, ok) => {
    expect(hasAtMostTwoDecimals(value)).toBe(ok);
  });

  it.each([
    [0.0089, 4, true],
    [12.5, 4, true],
    [0.00891, 4, false],
    [3.18, 3, true],
    [3.1805, 3, false],
    [7, 0, true],
    [7.5, 0, false],
  ])('when %p is checked for %p decimals, then %p', (value, places, ok) => {
    expect(hasAtMostDecimals(value, places)).toBe(ok);
  });

  it.each([
    [0.0089, 4, '0.0089'],
    [12, 4, '12.0000'],
    [3.18, 3, '3.180'],
    [1999.9, 2, '1999.90'],
    [250, 0, '250'],
  ])('when %p is written with %p places, then %p', (value, places, text) => {
    expect(decimalOfNumber(value, places)).toBe(text);
  });

  it('when a number has more decimals than asked for, then writing it throws rather than rounding', () => {
    expect(() => decimalOfNumber(0.00891, 4)).toThrow(RangeError);
    expect(() => decimalOfNumber(Number.NaN, 2)).toThrow(RangeError);
  });

  it.each([
    ['1000.50', 1000.5],
    ['34.3', 34.3],
    ['0.07', 0.07],
    ['-0.05', -0.05],
    ['', null],
  ])('when the decimal %p is read as an amount, then it is %p', (text, amount) => {
    expect(amountOfDecimal(text)).toBe(amount);
  });

  it.each([
    ['1000.5', 100_050n],
    ['1000.50', 100_050n],
    ['0', 0n],
    ['-0.01', -1n],
    [' 12 ', 1200n],
    ['', null],
  ])('when the decimal %p is read, then it is %p cents', (text, cents) => {
    expect(centsOfDecimal(text)).toBe(cents);
  });

  it.each(['1.005', 'abc', '1e3', '--1', '1.'])('when %p is not an amount with two decimals, then reading it throws', (text) => {
    expect(() => centsOfDecimal(text)).toThrow(RangeError);
  });

  it.each([
    [100_050n, '1000.50', 1000.5],
    [5n, '0.05', 0.05],
    [-250n, '-2.50', -2.5],
    [0n, '0.00', 0],
  ])('when %p cents are written, then %p and %p', (cents, decimal, amount) => {
    expect(decimalOfCents(cents)).toBe(decimal);
    expect(amountOfCents(cents)).toBe(amount);
  });

  it("when amounts are converted by the fast paths, then they equal the decimal text's conversions", () => {
    const viaText = (value: number) => {
      const [whole, fraction = ''] = Math.abs(value).toFixed(2).split('.');
      const cents = BigInt(whole ?? '0') * 100n + BigInt(fraction.padEnd(2, '0'));
      return value < 0 ? -cents : cents;
    };
    const edges = [0, 0.01, 0.07, 0.29, 0.57, 1.005, 1.15, 2.675, 10.1, 2499.99, 1e9, 1e9 + 0.01, 45_035_996_273_704.95, 9_007_199_254_740.99, -0.07, -1234.56];
    const cents = Array.from({ length: 20_000 }, (_, index) => (BigInt(index) * 7_919_993n) % 100_000_000_000n);
    const amounts = [...edges, ...cents.map((c) => Number(c) / 100)];
    for (const value of amounts) expect(centsOfAmount(value)).toBe(viaText(value));
    const notAmounts = [
      0.001,
      0.125,
      1.0051,
      2.675 + 1e-9,
      1e-7,
      45_035_996_273_704.96,
      1e21,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      ...cents.map((c) => Number(c) / 1000),
    ];
    for (const value of [...amounts, ...notAmounts]) expect(hasAtMostTwoDecimals(value)).toBe(hasAtMostDecimals(value, 2));
    for (const value of [...cents, 2n ** 53n - 1n, -(2n ** 53n - 1n), 2n ** 53n + 1n, 10n ** 20n + 1n])
      expect(amountOfCents(value)).toBe(Number(decimalOfCents(value)));
  });

  it('when an absent amount (null) is written, then it stays null', () => {
    expect(decimalOfCents(null)).toBeNull();
    expect(amountOfCents(null)).toBeNull();
  });
});

describe('half-up division', () => {
  it.each([
    [5n, 2n, 3n],
    [4n, 2n, 2n],
    [7n, 3n, 2n],
    [8n, 3n, 3n],
    [0n, 7n, 0n],
    [2305n, 1000n, 2n],
    [23_050n, 10_000n, 2n],
    [230_500n, 100_000n, 2n],
  ])('when %p / %p, then %p', (numerator, denominator, quotient) => {
    expect(divideRoundingHalfUp(numerator, denominator)).toBe(quotient);
  });

  it('when the numerator is negative or the denominator not positive, then it throws', () => {
    expect(() => divideRoundingHalfUp(-1n, 2n)).toThrow(RangeError);
    expect(() => divideRoundingHalfUp(1n, 0n)).toThrow(RangeError);
  });
});

describe('percentages in thousandths', () => {
  it.each([
    ['3.18', 3180],
    ['3.180', 3180],
    ['0', 0],
    ['9999999.999', 9_999_999_999],
    ['0.001', 1],
  ])('when %p is read, then %p thousandths', (text, milli) => {
    expect(milliOfPercentage(text)).toBe(milli);
  });

  it.each(['3.1805', '-1', 'x', ''])('when %p is not a percentage with three decimals, then reading it throws', (text) => {
    expect(() => milliOfPercentage(text)).toThrow(RangeError);
  });

  it.each([
    [3180, '3.180'],
    [15_000, '15.000'],
    [1, '0.001'],
    [-2500, '-2.500'],
  ])('when %p thousandths are written, then %p', (milli, text) => {
    expect(percentageOfMilli(milli)).toBe(text);
  });

  it('when scaled decimals are read, then they keep their places and refuse more', () => {
    expect(scaledOfDecimal('0.0089', 4)).toBe(89n);
    expect(scaledOfDecimal('12', 4)).toBe(120_000n);
    expect(scaledOfDecimal('', 4)).toBeNull();
    expect(() => scaledOfDecimal('0.00891', 4)).toThrow(RangeError);
  });
});

describe('euroText', () => {
  it('writes cents as a two-place amount in EUR, and "-" for no amount', () => {
    expect([euroText(123450n), euroText(-5n), euroText(null)]).toEqual(['1234.50 EUR', '-0.05 EUR', '-']);
  });
});
