import { type Knex, transactionWithNotification } from '@rental/db';
import type { PartnerConditionsDocument, ReferenceViolation } from '@rental/proto';
import type { PartnerConditionsStore } from '../domain/partner-conditions';
import { CONDITIONS_CHANGED_CHANNEL } from './cached-readers';
import { writePartner } from './seed';

/** Reads a partner's conditions in the seed file's shape and replaces them as the seed does. */
export class PartnerConditionsRepository implements PartnerConditionsStore {
  constructor(private readonly db: Knex) {}

  async find(partnerId: string): Promise<PartnerConditionsDocument | undefined> {
    const [partner, factors, residuals] = await Promise.all([
      this.db('partners').where({ id: partnerId }).first(),
      this.db('rental_factors')
        .select('financing_type', 'commission', 'duration', 'factor_milli')
        .where({ partner_id: partnerId })
        .orderBy(['financing_type', 'commission', 'duration']),
      this.db('residual_values').select('financing_type', 'percent_milli').where({ partner_id: partnerId }).orderBy('financing_type'),
    ]);
    if (!partner) return undefined;
    const rentalFactors: Record<string, Record<string, Record<string, number>>> = {};
    for (const row of factors as { financing_type: string; commission: number; duration: number; factor_milli: number }[]) {
      const tiers = (rentalFactors[row.financing_type] ??= {});
      (tiers[String(row.commission)] ??= {})[String(row.duration)] = row.factor_milli / 1000;
    }
    return {
      allowedSectors: partner.allowed_sectors,
      financingPartner: partner.financing_partner_id,
      distributionHub: partner.distribution_hub_id,
      monthlySurcharge: Number(partner.monthly_surcharge_cents) / 100,
      paymentIntervals: partner.payment_intervals,
      rentalFactors,
      residualValues: Object.fromEntries(
        (residuals as { financing_type: string; percent_milli: number }[]).map((row) => [row.financing_type, row.percent_milli / 1000]),
      ),
    } as PartnerConditionsDocument;
  }

  /**
   * Checks the lenders, hubs and sectors named against what exists and, when all exist, writes
   * the partner in the same transaction; returns after every pricing replica was told (NOTIFY).
   */
  async replace(
    partner: { id: string; name: string; contactEmail: string | null },
    conditions: PartnerConditionsDocument,
    check: (references: { lenders: Set<string>; hubs: Set<string>; sectors: Set<string> }) => ReferenceViolation[],
  ): Promise<ReferenceViolation[]> {
    const found: ReferenceViolation[] = [];
    await transactionWithNotification(this.db, CONDITIONS_CHANGED_CHANNEL, async (trx) => {
      const [lenders, hubs, sectors] = await Promise.all([trx('lenders').pluck('id'), trx('distribution_hubs').pluck('id'), trx('sectors').pluck('value')]);
      found.push(...check({ lenders: new Set(lenders), hubs: new Set(hubs), sectors: new Set(sectors) }));
      if (found.length) return;
      await writePartner(trx, { ...partner, ...conditions } as Parameters<typeof writePartner>[1]);
    });
    return found;
  }
}
