import type { Knex } from '@rental/db';
import type { PartnerConditions, SectorRange } from '../domain/model';
import type { ConditionsReader } from '../domain/ports';

interface FactorRow {
  financing_type: string;
  commission: number;
  duration: number;
  factor_milli: number;
}

/** Partner conditions and the sector catalog, read from the database on every call (see CachedConditionsReader). */
export class ConditionsRepository implements ConditionsReader {
  constructor(private readonly db: Knex) {}

  async conditionsOf(partnerId: string): Promise<PartnerConditions | undefined> {
    const [partner, factors, residuals] = await Promise.all([
      this.db('partners').where({ id: partnerId }).first(),
      this.db('rental_factors').select('financing_type', 'commission', 'duration', 'factor_milli').where({ partner_id: partnerId }) as Promise<FactorRow[]>,
      this.db('residual_values').select('financing_type', 'percent_milli').where({ partner_id: partnerId }) as Promise<
        { financing_type: string; percent_milli: number }[]
      >,
    ]);
    if (!partner) return undefined;
    const rentalFactors = new Map<string, Map<number, Map<number, number>>>();
    for (const row of factors) {
      const tiers = rentalFactors.get(row.financing_type) ?? new Map<number, Map<number, number>>();
      const list = tiers.get(row.commission) ?? new Map<number, number>();
      list.set(row.duration, row.factor_milli);
      tiers.set(row.commission, list);
      rentalFactors.set(row.financing_type, tiers);
    }
    return {
      partnerId: partner.id,
      partnerName: partner.name,
      allowedSectors: partner.allowed_sectors,
      financingPartnerId: partner.financing_partner_id,
      distributionHubId: partner.distribution_hub_id,
      monthlySurchargeCents: BigInt(partner.monthly_surcharge_cents),
      paymentIntervals: partner.payment_intervals,
      rentalFactors,
      residualValues: new Map(residuals.map((row) => [row.financing_type, row.percent_milli])),
    };
  }

  async sectors(): Promise<SectorRange[]> {
    const rows: { value: string; label: string; duration_min: number; duration_max: number }[] = await this.db('sectors')
      .select('value', 'label', 'duration_min', 'duration_max')
      .orderBy('value');
    return rows.map((row) => ({ value: row.value, label: row.label, durationMin: row.duration_min, durationMax: row.duration_max }));
  }
}
