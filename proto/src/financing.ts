/**
 * The financing vocabulary every service speaks: the values a calculation's calculationTypes, a
 * rental-factor list, a checkout's financingType and a quote's calculationType take.
 */
export const FINANCING_TYPES = [
  'rent',
  'leasing',
  'rent_to_own',
  'print_plan',
  'partial_amortisation_leasing',
  'print_plan_3kdg_12verl',
  'print_plan_6kdg_12verl',
] as const;
export type FinancingType = (typeof FINANCING_TYPES)[number];

/** The financing types a cart can be checked out with, in the order a cart lists its options. */
export const CHECKOUT_FINANCING_TYPES = [
  'rent',
  'rent_to_own',
  'leasing',
  'print_plan',
  'print_plan_3kdg_12verl',
  'print_plan_6kdg_12verl',
] as const satisfies readonly FinancingType[];

/** The Print-Plan financing types: every item needs the category's Print-Plan capability, and they carry click-billing terms. */
export const PRINT_PLAN_TYPES: ReadonlySet<string> = new Set<FinancingType>(['print_plan', 'print_plan_3kdg_12verl', 'print_plan_6kdg_12verl']);

/** The one financing type whose rate includes the monthly service cost. */
export const SERVICE_COST_FINANCING_TYPE: FinancingType = 'rent';

/** quarterly pays three monthly rates at once; only monthly adds the partner's monthly surcharge. */
export const PAYMENT_INTERVALS = ['monthly', 'quarterly'] as const;
export type PaymentInterval = (typeof PAYMENT_INTERVALS)[number];
