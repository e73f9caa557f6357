/**
 * Money is integer cents (bigint) inside pricing; the API speaks JSON numbers with at most two
 * decimals and gRPC speaks decimal strings. Nothing here sums binary floating point values.
 */
export type Cents = bigint;

const TWO_DECIMALS = /^-?\d+(\.\d{1,2})?$/;

/** Whether a JSON number has at most two decimals (1.5, 10.25; not 0.001 or 1e-7). */
export function hasAtMostTwoDecimals(value: number): boolean {
  return Number.isFinite(value) && Number(value.toFixed(2)) === value;
}

/** A JSON number with at most two decimals to cents, exactly. */
export function centsOf(value: number | null | undefined): Cents {
  if (value === null || value === undefined) return 0n;
  const [whole, fraction = ''] = Math.abs(value).toFixed(2).split('.');
  const cents = BigInt(whole ?? '0') * 100n + BigInt(fraction.padEnd(2, '0'));
  return value < 0 ? -cents : cents;
}

/** "1000.00" → cents; empty string → undefined (the gRPC encoding of null). */
export function centsOfDecimal(value: string): Cents | undefined {
  if (value === '') return undefined;
  if (!TWO_DECIMALS.test(value)) throw new RangeError(`not an amount with two decimals: ${value}`);
  const negative = value.startsWith('-');
  const [whole, fraction = ''] = value.replace('-', '').split('.');
  const cents = BigInt(whole ?? '0') * 100n + BigInt(fraction.padEnd(2, '0'));
  return negative ? -cents : cents;
}

export function decimalOf(cents: Cents): string {
  const negative = cents < 0n;
  const absolute = negative ? -cents : cents;
  const text = `${absolute / 100n}.${(absolute % 100n).toString().padStart(2, '0')}`;
  return negative ? `-${text}` : text;
}

/** Cents as the JSON number partners read (1000.5 for 100050 cents); exact for amounts below 2^53 cents. */
export function amountOf(cents: Cents): number {
  return Number(decimalOf(cents));
}

/** a / b rounded half up (away from zero for the halves), both non-negative. */
export function divideRoundingHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/** Thousandths (3180) as a decimal with three places ("3.180"). */
export function milliDecimalOf(milli: number): string {
  const sign = milli < 0 ? '-' : '';
  const absolute = Math.abs(milli);
  return `${sign}${Math.floor(absolute / 1000)}.${String(absolute % 1000).padStart(3, '0')}`;
}

/** "3.18" or "3.180" → 3180. */
export function milliOfDecimal(value: string): number {
  const [whole, fraction = ''] = value.split('.');
  return Number(whole) * 1000 + Number(fraction.padEnd(3, '0').slice(0, 3));
}

/** "0.0089" → 89 at four places; empty → undefined. More places than `places` is a RangeError. */
export function scaledOfDecimal(value: string, places: number): bigint | undefined {
  if (value === '') return undefined;
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match || (match[2]?.length ?? 0) > places) throw new RangeError(`not a non-negative decimal with at most ${places} places: ${value}`);
  return BigInt(match[1] as string) * 10n ** BigInt(places) + BigInt((match[2] ?? '').padEnd(places, '0') || '0');
}
