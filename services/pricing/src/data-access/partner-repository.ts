import type { Knex } from '@rental/db';
import type { PartnerProfile } from '../domain/model';
import type { PartnerProfileReader } from '../domain/ports';

export class PartnerRepository implements PartnerProfileReader {
  constructor(private readonly db: Knex) {}

  async findProfile(partnerId: string): Promise<PartnerProfile | undefined> {
    const row = await this.db('partners as p')
      .leftJoin('lenders as l', 'l.id', 'p.financing_partner_id')
      .leftJoin('distribution_hubs as h', 'h.id', 'p.distribution_hub_id')
      .select(
        'p.id',
        'p.name',
        'p.contact_email',
        'p.payment_intervals',
        'l.id as lender_id',
        'l.name as lender_name',
        'l.contact_email as lender_email',
        'h.id as hub_id',
        'h.name as hub_name',
        'h.contact_email as hub_email',
        'h.connected as hub_connected',
      )
      .where('p.id', partnerId)
      .first();
    if (!row) return undefined;
    return {
      id: row.id,
      name: row.name,
      contactEmail: row.contact_email,
      financingPartner: row.lender_id ? { id: row.lender_id, name: row.lender_name, contactEmail: row.lender_email } : null,
      distributionHub: row.hub_id ? { id: row.hub_id, name: row.hub_name, contactEmail: row.hub_email, connected: row.hub_connected } : null,
      paymentIntervals: row.payment_intervals,
    };
  }
}
