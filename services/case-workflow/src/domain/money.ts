import type { Cents } from './model';

const DECIMAL = /^(-?)(\d{1,13})(?:\.(\d{1,2}))?$/;
const FACTOR = /^(\d{1,6})(?:\.(\d{1,3}))?$/;

/** "1000.5" → 100050n; "" → null; anything else is not an amount. */
export function centsOfDecimal(value: string): Cents | null {
  const text = value.trim();
  if (text === '') return null;
  const match = DECIMAL.exec(text);
  if (!match) throw new Error(`not an amount: ${value}`);
  const cents = BigInt(match[2] as string) * 100n + BigInt((match[3] ?? '').padEnd(2, '0'));
  return match[1] === '-' ? -cents : cents;
}

/** Cents as the JSON number partners read: at most two decimals, no float arithmetic on the way. */
export function amountOf(cents: Cents): number {
  const negative = cents < 0n;
  const absolute = negative ? -cents : cents;
  return Number(`${negative ? '-' : ''}${absolute / 100n}.${(absolute % 100n).toString().padStart(2, '0')}`);
}

/** A percentage factor with three decimals ("3.18" → "3.180"); "" → null. */
export function factorOf(value: string): string | null {
  const text = value.trim();
  if (text === '') return null;
  const match = FACTOR.exec(text);
  if (!match) throw new Error(`not a factor: ${value}`);
  return `${Number(match[1])}.${(match[2] ?? '').padEnd(3, '0')}`;
}
