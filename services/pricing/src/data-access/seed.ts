import { type Knex, transactionWithNotification } from '@rental/db';
import { centsOfDecimal, decimalOfNumber, milliOfPercentage } from '@rental/money';
import { CONDITIONS_CHANGED_CHANNEL } from './cached-readers';

/** The parts of a seed file pricing owns (the shape of fixtures/seed.json). */
export interface PricingSeed {
  sectors: { value: string; label: string; durationRange: [number, number] }[];
  categories: { id: number; slug: string; name: string; sector: string; durationRange: [number, number]; hasPrintPlanCapability: boolean }[];
  lenders: { id: string; name: string; contactEmail: string | null }[];
  distributionHubs: { id: string; name: string; connected: boolean; contactEmail: string | null }[];
  partners: {
    id: string;
    name: string;
    contactEmail: string | null;
    allowedSectors: string[] | null;
    financingPartner: string | null;
    distributionHub: string | null;
    monthlySurcharge: number;
    paymentIntervals: string[];
    rentalFactors: Record<string, Record<string, Record<string, number>>>;
    residualValues: Record<string, number>;
  }[];
}

/** Numbers of the seed file as stored: amounts in cents, percentages in thousandths; more decimals are refused, never rounded. */
const centsOf = (amount: number) => Number(centsOfDecimal(decimalOfNumber(amount, 2)));
const milliOf = (percent: number) => milliOfPercentage(decimalOfNumber(percent, 3));

/**
 * Loads catalog and partner conditions; idempotent (a second load changes no row). Returns once
 * the change was announced to every pricing process that listens (they drop what they cached).
 */
export async function seedPricing(db: Knex, seed: PricingSeed): Promise<void> {
  await transactionWithNotification(db, CONDITIONS_CHANGED_CHANNEL, async (trx) => {
    for (const sector of seed.sectors) {
      await trx('sectors')
        .insert({ value: sector.value, label: sector.label, duration_min: sector.durationRange[0], duration_max: sector.durationRange[1] })
        .onConflict('value')
        .merge();
    }
    for (const category of seed.categories) {
      await trx('categories')
        .insert({
          id: category.id,
          slug: category.slug,
          name: category.name,
          sector: category.sector,
          duration_min: category.durationRange[0],
          duration_max: category.durationRange[1],
          has_print_plan_capability: category.hasPrintPlanCapability,
        })
        .onConflict('id')
        .merge();
    }
    for (const lender of seed.lenders) {
      await trx('lenders').insert({ id: lender.id, name: lender.name, contact_email: lender.contactEmail }).onConflict('id').merge();
    }
    for (const hub of seed.distributionHubs) {
      await trx('distribution_hubs').insert({ id: hub.id, name: hub.name, connected: hub.connected, contact_email: hub.contactEmail }).onConflict('id').merge();
    }
    for (const partner of seed.partners) await writePartner(trx, partner);
  });
}

export type PartnerSeed = PricingSeed['partners'][number];

/** A partner's profile and conditions replaced as given: factors and residual values it no longer lists are deleted. */
export async function writePartner(trx: Knex.Transaction, partner: PartnerSeed): Promise<void> {
  await trx('partners')
    .insert({
      id: partner.id,
      name: partner.name,
      contact_email: partner.contactEmail,
      allowed_sectors: partner.allowedSectors,
      financing_partner_id: partner.financingPartner,
      distribution_hub_id: partner.distributionHub,
      monthly_surcharge_cents: centsOf(partner.monthlySurcharge),
      payment_intervals: partner.paymentIntervals,
    })
    .onConflict('id')
    .merge();
  const factors = Object.entries(partner.rentalFactors).flatMap(([financingType, tiers]) =>
    Object.entries(tiers).flatMap(([commission, durations]) =>
      Object.entries(durations).map(([duration, factor]) => ({
        partner_id: partner.id,
        financing_type: financingType,
        commission: Number(commission),
        duration: Number(duration),
        factor_milli: milliOf(factor),
      })),
    ),
  );
  const factorKey = (row: { financing_type: string; commission: number; duration: number }) => `${row.financing_type}/${row.commission}/${row.duration}`;
  const wanted = new Set(factors.map(factorKey));
  const existing: { financing_type: string; commission: number; duration: number }[] = await trx('rental_factors')
    .select('financing_type', 'commission', 'duration')
    .where({ partner_id: partner.id });
  for (const row of existing.filter((r) => !wanted.has(factorKey(r)))) {
    await trx('rental_factors')
      .where({ partner_id: partner.id, ...row })
      .delete();
  }
  if (factors.length)
    await trx('rental_factors').insert(factors).onConflict(['partner_id', 'financing_type', 'commission', 'duration']).merge(['factor_milli']);
  const residuals = Object.entries(partner.residualValues).map(([financingType, percent]) => ({
    partner_id: partner.id,
    financing_type: financingType,
    percent_milli: milliOf(percent),
  }));
  await trx('residual_values')
    .where({ partner_id: partner.id })
    .whereNotIn(
      'financing_type',
      residuals.map((r) => r.financing_type),
    )
    .delete();
  if (residuals.length) await trx('residual_values').insert(residuals).onConflict(['partner_id', 'financing_type']).merge(['percent_milli']);
}
