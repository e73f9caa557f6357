/**
 * Money is integer cents (bigint) everywhere; the API speaks JSON numbers with at most two
 * decimals, gRPC and Postgres speak decimal strings. Rental factors and residual values are
 * percentages with three decimals, held as integer thousandths. Nothing here sums binary
 * floating-point values.
 */
export type Cents = bigint;

const AMOUNT = /^(-?)(\d{1,15})(?:\.(\d{1,2}))?$/;
const PERCENTAGE = /^(\d{1,7})(?:\.(\d{1,3}))?$/;
const MAX_EXACT_CENTS = BigInt(Number.MAX_SAFE_INTEGER);

/** Whether a JSON number has at most `places` decimals (at two: 1.5, 10.25; not 0.001 or 1e-7). */
export function hasAtMostDecimals(value: number, places: number): boolean {
  return Number.isFinite(value) && Number(value.toFixed(places)) === value;
}

/**
 * The whole number of cents nearest to value × 100 when the product lands within a quarter of
 * one (so that integer is also the one toFixed(2) rounds the exact value to: below 2^50 the
 * product is off by at most 1/16), else undefined. Saves the decimal text on every amount read.
 */
function nearCents(value: number): number | undefined {
  const scaled = value * 100;
  const nearest = Math.round(scaled);
  return Math.abs(scaled) < 2 ** 50 && Math.abs(scaled - nearest) < 0.25 ? nearest : undefined;
}

/** Whether a JSON number has at most two decimals (1.5, 10.25; not 0.001 or 1e-7). */
export function hasAtMostTwoDecimals(value: number): boolean {
  const cents = nearCents(value);
  return cents === undefined ? hasAtMostDecimals(value, 2) : cents / 100 === value;
}

/** A JSON number with at most `places` decimals as a decimal string with exactly that many (0.0089 at four → "0.0089"); more decimals throw a RangeError. */
export function decimalOfNumber(value: number, places: number): string {
  if (!hasAtMostDecimals(value, places)) throw new RangeError(`not a number with at most ${places} decimals: ${value}`);
  return value.toFixed(places);
}

/** A JSON number with at most two decimals to cents, exactly; null and undefined count as 0. */
export function centsOfAmount(value: number | null | undefined): Cents {
  if (value === null || value === undefined) return 0n;
  const near = nearCents(value);
  if (near !== undefined) return BigInt(near);
  const [whole, fraction = ''] = Math.abs(value).toFixed(2).split('.');
  const cents = BigInt(whole ?? '0') * 100n + BigInt(fraction.padEnd(2, '0'));
  return value < 0 ? -cents : cents;
}

/** "1000.5" → 100050n; "" → null (the gRPC encoding of absent); anything else throws a RangeError. */
export function centsOfDecimal(value: string): Cents | null {
  const text = value.trim();
  if (text === '') return null;
  const match = AMOUNT.exec(text);
  if (!match) throw new RangeError(`not an amount with at most two decimals: ${value}`);
  const cents = BigInt(match[2] as string) * 100n + BigInt((match[3] ?? '').padEnd(2, '0'));
  return match[1] === '-' ? -cents : cents;
}

/** 100050n → "1000.50"; null (an absent amount) stays null. */
export function decimalOfCents(cents: Cents): string;
export function decimalOfCents(cents: Cents | null): string | null;
export function decimalOfCents(cents: Cents | null): string | null {
  if (cents === null) return null;
  const negative = cents < 0n;
  const absolute = negative ? -cents : cents;
  const text = `${absolute / 100n}.${(absolute % 100n).toString().padStart(2, '0')}`;
  return negative ? `-${text}` : text;
}

/** Cents as the JSON number partners read (1000.5 for 100050n), exact below 2^53 cents; null stays null. */
export function amountOfCents(cents: Cents): number;
export function amountOfCents(cents: Cents | null): number | null;
export function amountOfCents(cents: Cents | null): number | null {
  if (cents === null) return null;
  // Both an exact integer division and reading the decimal text round the same exact value to
  // the nearest double, so below 2^53 cents the cheap one gives the same number.
  if (cents <= MAX_EXACT_CENTS && cents >= -MAX_EXACT_CENTS) return Number(cents) / 100;
  return Number(decimalOfCents(cents));
}

/** "1000.50" → 1000.5, the JSON number partners read; "" → null; anything else throws a RangeError. */
export function amountOfDecimal(value: string): number | null {
  return amountOfCents(centsOfDecimal(value));
}

/** numerator / denominator rounded half up (halves away from zero), both non-negative. */
export function divideRoundingHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (numerator < 0n || denominator <= 0n) throw new RangeError('divideRoundingHalfUp takes a non-negative numerator and a positive denominator');
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/** "3.18" or "3.180" → 3180 (thousandths of a percent); more than three decimals throws a RangeError. */
export function milliOfPercentage(value: string): number {
  const match = PERCENTAGE.exec(value.trim());
  if (!match) throw new RangeError(`not a percentage with at most three decimals: ${value}`);
  return Number(match[1]) * 1000 + Number((match[2] ?? '').padEnd(3, '0'));
}

/** 3180 → "3.180". */
export function percentageOfMilli(milli: number): string {
  if (!Number.isSafeInteger(milli)) throw new RangeError(`not a whole number of thousandths: ${milli}`);
  const sign = milli < 0 ? '-' : '';
  const absolute = Math.abs(milli);
  return `${sign}${Math.floor(absolute / 1000)}.${String(absolute % 1000).padStart(3, '0')}`;
}

/** "0.0089" at four places → 89n; "" → null; more places than `places` throws a RangeError. */
export function scaledOfDecimal(value: string, places: number): bigint | null {
  if (value === '') return null;
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value);
  if (!match || (match[2]?.length ?? 0) > places) throw new RangeError(`not a non-negative decimal with at most ${places} places: ${value}`);
  return BigInt(match[1] as string) * 10n ** BigInt(places) + BigInt((match[2] ?? '').padEnd(places, '0') || '0');
}

/** An amount as people read it in a document: "1234.50 EUR", or "-" where there is none. */
export function euroText(cents: Cents | null): string {
  return cents === null ? '-' : `${decimalOfCents(cents)} EUR`;
}
