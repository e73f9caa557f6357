import { centsOfDecimal, decimalOfCents, milliOfPercentage } from '@rental/money';
import { rateOf } from './rates';

/** Amounts as decimal strings, so each row reads like the architecture's formula table. */
interface Row {
  case: string;
  financed: string;
  factor: string;
  type: string;
  service: string | null;
  surcharge: string;
  interval: 'monthly' | 'quarterly';
  /** base rate, service cost in the rate, surcharge in the rate, all in */
  expected: [string, string | null, string, string];
}

const cents = (value: string) => centsOfDecimal(value) as bigint;

function rate(row: Row): [string, string | null, string, string] {
  const result = rateOf({
    financedCents: cents(row.financed),
    factorMilli: milliOfPercentage(row.factor),
    financingType: row.type,
    serviceCostCents: row.service === null ? null : cents(row.service),
    monthlySurchargeCents: cents(row.surcharge),
    paymentInterval: row.interval,
  });
  return [
    decimalOfCents(result.baseRateCents),
    result.serviceCostCents === null ? null : decimalOfCents(result.serviceCostCents),
    decimalOfCents(result.surchargeCents),
    decimalOfCents(result.monthlyRateAllInCents),
  ];
}

/** One `it` a row: the rate, its parts and the whole as the row expects them. */
const expectRates = (rows: Row[]) =>
  it.each(rows)('when $case, then base, service cost, surcharge and rate are $expected', (input) => {
    expect(rate(input)).toEqual(input.expected);
  });

const row = (
  name: string,
  financed: string,
  factor: string,
  type: string,
  service: string | null,
  surcharge: string,
  interval: Row['interval'],
  expected: Row['expected'],
): Row => ({ case: name, financed, factor, type, service, surcharge, interval, expected });

describe('the rate of an offer: round half up to cents of (financed amount × factor / 100), plus service cost for rent, plus the surcharge when monthly', () => {
  describe('the base rate', () => {
    expectRates([
      row('acme leases 1000.00 for 36 months at 3.180 %', '1000.00', '3.180', 'leasing', null, '0.00', 'monthly', ['31.80', null, '0.00', '31.80']),
      row('1500.00 at 4.500 %', '1500.00', '4.500', 'leasing', null, '0.00', 'monthly', ['67.50', null, '0.00', '67.50']),
      row('1234.56 at 3.180 % (39.259… → 39.26)', '1234.56', '3.180', 'leasing', null, '0.00', 'monthly', ['39.26', null, '0.00', '39.26']),
      row('2000.00 at the 3 % tier factor 3.280 %', '2000.00', '3.280', 'leasing', null, '0.00', 'monthly', ['65.60', null, '0.00', '65.60']),
      row('a factor of 0 gives 0', '1000.00', '0', 'leasing', null, '0.00', 'monthly', ['0.00', null, '0.00', '0.00']),
      row('nothing financed gives 0', '0', '3.180', 'leasing', null, '0.00', 'monthly', ['0.00', null, '0.00', '0.00']),
      row('the largest amount the API takes stays exact', '1000000000.00', '99.999', 'leasing', null, '0.00', 'monthly', [
        '999990000.00',
        null,
        '0.00',
        '999990000.00',
      ]),
      row('9999999.99 at 3.333 % (333299.9996… → 333300.00)', '9999999.99', '3.333', 'leasing', null, '0.00', 'monthly', [
        '333300.00',
        null,
        '0.00',
        '333300.00',
      ]),
    ]);
  });

  describe('rounding half up at half a cent', () => {
    expectRates([
      row('50.00 × 4.610 % is 2.305 exactly', '50.00', '4.610', 'leasing', null, '0.00', 'monthly', ['2.31', null, '0.00', '2.31']),
      row('201.00 × 2.500 % is 5.025 exactly', '201.00', '2.500', 'leasing', null, '0.00', 'monthly', ['5.03', null, '0.00', '5.03']),
      row('1.00 × 0.500 % is 0.005 exactly', '1.00', '0.500', 'leasing', null, '0.00', 'monthly', ['0.01', null, '0.00', '0.01']),
      row('0.01 × 50.000 % is 0.005 exactly', '0.01', '50.000', 'leasing', null, '0.00', 'monthly', ['0.01', null, '0.00', '0.01']),
      row('1234.50 × 2.460 % is 30.3687', '1234.50', '2.460', 'leasing', null, '0.00', 'monthly', ['30.37', null, '0.00', '30.37']),
      row('2499.99 × 8.950 % is 223.749105', '2499.99', '8.950', 'leasing', null, '0.00', 'monthly', ['223.75', null, '0.00', '223.75']),
      row('2499.99 × 4.610 % is 115.249539', '2499.99', '4.610', 'leasing', null, '0.00', 'monthly', ['115.25', null, '0.00', '115.25']),
      row('10.10 × 2.475 % is 0.249975', '10.10', '2.475', 'leasing', null, '0.00', 'monthly', ['0.25', null, '0.00', '0.25']),
      row('333.33 × 3.000 % is 9.9999', '333.33', '3.000', 'leasing', null, '0.00', 'monthly', ['10.00', null, '0.00', '10.00']),
      row('201.00 × 2.499 % is 5.02299, below the half', '201.00', '2.499', 'leasing', null, '0.00', 'monthly', ['5.02', null, '0.00', '5.02']),
      row('0.01 × 49.999 % is 0.0049999, below the half', '0.01', '49.999', 'leasing', null, '0.00', 'monthly', ['0.00', null, '0.00', '0.00']),
      row('99.99 × 0.005 % is 0.0049995, below the half', '99.99', '0.005', 'leasing', null, '0.00', 'monthly', ['0.00', null, '0.00', '0.00']),
    ]);
  });

  describe('the monthly surcharge counts for the monthly interval only', () => {
    expectRates([
      row('acme pays monthly', '1000.00', '3.180', 'leasing', null, '2.50', 'monthly', ['31.80', null, '2.50', '34.30']),
      row('acme pays quarterly', '1000.00', '3.180', 'leasing', null, '2.50', 'quarterly', ['31.80', null, '0.00', '31.80']),
      row('a partner without surcharge pays monthly', '1000.00', '3.180', 'leasing', null, '0.00', 'monthly', ['31.80', null, '0.00', '31.80']),
      row('1500.00 at 4.500 % monthly', '1500.00', '4.500', 'leasing', null, '2.50', 'monthly', ['67.50', null, '2.50', '70.00']),
      row('rent_to_own monthly', '1000.00', '3.250', 'rent_to_own', null, '2.50', 'monthly', ['32.50', null, '2.50', '35.00']),
      row('partial amortisation leasing monthly', '1000.00', '2.750', 'partial_amortisation_leasing', null, '2.50', 'monthly', [
        '27.50',
        null,
        '2.50',
        '30.00',
      ]),
      row('nothing financed, monthly', '0', '3.180', 'leasing', null, '2.50', 'monthly', ['0.00', null, '2.50', '2.50']),
    ]);
  });

  describe('the service cost counts for rent only', () => {
    expectRates([
      row('rent with 10.00 service cost, monthly', '1000.00', '3.400', 'rent', '10.00', '2.50', 'monthly', ['34.00', '10.00', '2.50', '46.50']),
      row('rent with 10.00 service cost, quarterly', '1000.00', '3.400', 'rent', '10.00', '2.50', 'quarterly', ['34.00', '10.00', '0.00', '44.00']),
      row('rent without service cost', '1000.00', '3.400', 'rent', null, '2.50', 'monthly', ['34.00', null, '2.50', '36.50']),
      row('rent with a service cost of 0', '1000.00', '3.400', 'rent', '0.00', '0.00', 'monthly', ['34.00', '0.00', '0.00', '34.00']),
      row('rent of 799.95 at 9.400 % with 4.99 service cost', '799.95', '9.400', 'rent', '4.99', '2.50', 'monthly', ['75.20', '4.99', '2.50', '82.69']),
      row('rent with nothing financed', '0', '3.400', 'rent', '10.00', '2.50', 'monthly', ['0.00', '10.00', '2.50', '12.50']),
      row('leasing given a service cost', '1000.00', '3.180', 'leasing', '10.00', '2.50', 'monthly', ['31.80', null, '2.50', '34.30']),
      row('rent_to_own given a service cost', '1000.00', '3.250', 'rent_to_own', '10.00', '2.50', 'monthly', ['32.50', null, '2.50', '35.00']),
      row('print_plan given a service cost', '1000.00', '3.300', 'print_plan', '10.00', '2.50', 'quarterly', ['33.00', null, '0.00', '33.00']),
      row('partial amortisation leasing given a service cost', '1000.00', '2.750', 'partial_amortisation_leasing', '10.00', '0.00', 'monthly', [
        '27.50',
        null,
        '0.00',
        '27.50',
      ]),
    ]);
  });
});
